#include "launch.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "embedded_spirv.hpp"
#include "porta_common/format.hpp"

namespace porta::ops {

namespace {

// A built-in kernel's SPIR-V and its reuse key, "porta.ops." and its name:
// the device finds the kernel by the key, without reading the SPIR-V again.
struct Builtin {
  const EmbeddedSpirv* spirv;
  std::string reuse_key;
};

const Builtin* find_builtin(const char* name) {
  static const std::vector<Builtin> builtins = [] {
    std::vector<Builtin> all;
    for (size_t i = 0; i < kEmbeddedSpirvCount; ++i)
      all.push_back({&kEmbeddedSpirv[i], std::string("porta.ops.") + kEmbeddedSpirv[i].name});
    return all;
  }();
  for (const Builtin& builtin : builtins)
    if (!std::strcmp(builtin.spirv->name, name)) return &builtin;
  return nullptr;
}

}  // namespace

bool has_builtin_kernel(const char* name) { return find_builtin(name) != nullptr; }

KernelHandle builtin_kernel(const OpCall& call, const char* name, const porta_spec_constant* specs,
                            size_t spec_count, uint32_t flags) {
  const Builtin* builtin = find_builtin(name);
  if (!builtin)
    call.fail(PORTA_ERROR_INTERNAL, "no built-in kernel named '%s' was compiled into libporta", name);
  porta_kernel_descriptor descriptor{};
  descriptor.struct_size = sizeof descriptor;
  descriptor.source_kind = PORTA_KERNEL_SOURCE_SPIRV;
  descriptor.source = builtin->spirv->words;
  descriptor.source_size = builtin->spirv->word_count * sizeof(uint32_t);
  descriptor.name = name;
  descriptor.specs = specs;
  descriptor.spec_count = static_cast<uint32_t>(spec_count);
  descriptor.flags = PORTA_KERNEL_FLAG_REUSE | flags;
  descriptor.reuse_key = builtin->reuse_key.c_str();
  porta_kernel kernel = nullptr;
  const porta_status status = porta_kernel_create(call.device.get(), &descriptor, &kernel);
  if (status != PORTA_SUCCESS)
    call.fail(status, "built-in kernel '%s': %s", name, last_error_cause(status).c_str());
  return KernelHandle(kernel);
}

namespace {

// Counts a queued dispatch of the op, or throws its failure. Queued work
// cannot be taken back: where the op's first dispatches are queued and a
// later one fails, they run all the same, and the error says so, with what
// that leaves (an op that splits K, runs in pieces or steps in two kernels
// has written part of its outputs, or updated inputs in place, by then).
void queued(const OpCall& call, porta_status status) {
  if (status == PORTA_SUCCESS) {
    ++call.dispatches;
    return;
  }
  std::string message = std::string(call.op) + ": " + porta_last_error();
  if (call.dispatches > 0)
    message += common::format(
        " [dispatch %u of the op failed after its first %u %s queued: %s stay on the stream (or in the "
        "sequence it records) and run, so what the op writes (its outputs, and inputs it updates in "
        "place) may be partly written: treat it as undefined and run the op again from saved inputs; %s]",
        call.dispatches + 1, call.dispatches, call.dispatches == 1 ? "was" : "were",
        call.dispatches == 1 ? "it" : "they",
        status == PORTA_ERROR_DEVICE_LOST ? "the device is lost, and every later call on it fails"
                                          : "the stream works on");
  throw porta::Error(status, message);
}

}  // namespace

void dispatch(const OpCall& call, const KernelHandle& kernel, uint32_t groups_x, uint32_t groups_y,
              std::initializer_list<porta_buffer> buffers, const void* push, uint32_t push_size) {
  const uint32_t groups[3] = {groups_x, groups_y, 1};
  queued(call, porta_stream_dispatch(call.stream, kernel.get(), groups, buffers.begin(),
                                     static_cast<uint32_t>(buffers.size()), push, push_size));
}

void dispatch_ranges(const OpCall& call, const KernelHandle& kernel, uint32_t groups_x, uint32_t groups_y,
                     std::initializer_list<porta_binding> bindings, const void* push, uint32_t push_size) {
  const uint32_t groups[3] = {groups_x, groups_y, 1};
  queued(call, porta_stream_dispatch_bindings(call.stream, kernel.get(), groups, bindings.begin(),
                                              static_cast<uint32_t>(bindings.size()), push, push_size));
}

void for_each_row_piece(const OpCall& call, std::initializer_list<RowOperand> operands, uint64_t rows,
                        uint32_t granule, const std::function<void(const Piece&)>& body) {
  if (operands.size() > kMaxPieceOperands)
    call.fail(PORTA_ERROR_INTERNAL, "for_each_row_piece: %zu operands, more than %zu", operands.size(),
              kMaxPieceOperands);
  constexpr uint64_t kUnit = sizeof(float);
  const uint64_t limit = call.info.max_binding_bytes;
  const uint64_t index_limit = max_index_elements();
  // Elements (units times pack) of a split operand from its buffer's start to
  // the end of its last row.
  auto reach = [&](const RowOperand& o) {
    return rows == 0 ? 0 : (o.view->offset + (rows - 1) * o.stride + o.width) * o.pack;
  };
  for (const RowOperand& o : operands)
    if (!o.split) require_indexed(call, *o.view, "this op binds it whole");
  Piece piece;
  if (std::all_of(operands.begin(), operands.end(), [&](const RowOperand& o) {
        return o.view->buffer_bytes <= limit && (!o.split || reach(o) <= index_limit + 1);
      })) {
    piece.count = rows;
    size_t i = 0;
    for (const RowOperand& o : operands) {
      piece.binding[i] = {o.view->buffer, 0, 0};
      piece.offset[i++] = static_cast<uint32_t>(o.view->offset);
    }
    body(piece);
    return;
  }
  const uint64_t align = std::lcm<uint64_t>(std::max<uint64_t>(call.info.binding_offset_alignment, 1), 16);
  // A range starts up to align - kUnit bytes before its piece's first unit.
  const uint64_t lead = align / kUnit - 1;
  uint64_t most = rows;
  for (const RowOperand& o : operands) {
    const View& v = *o.view;
    if (!o.split && v.buffer_bytes > limit)
      call.fail(PORTA_ERROR_UNSUPPORTED,
                "'%s' is in a buffer of %llu bytes, more than the device binds (max_binding_bytes = %llu), "
                "and this op binds it whole",
                v.name.c_str(), static_cast<unsigned long long>(v.buffer_bytes),
                static_cast<unsigned long long>(limit));
    if (!o.split) continue;
    // Units of a piece's rows in one range: within the binding limit, and
    // with the last element's index (from the range's start) within 32 bits.
    const uint64_t bytes_room = limit > align ? (limit - align) / kUnit + 1 : 0;
    const uint64_t index_units = (index_limit + 1) / o.pack;
    const uint64_t index_room = index_units > lead ? index_units - lead : 0;
    const uint64_t room = std::min(bytes_room, index_room);
    if (room < o.width)
      call.fail(PORTA_ERROR_UNSUPPORTED,
                "a row of '%s' (%llu bytes) does not fit in one binding of the device (max_binding_bytes = "
                "%llu, binding_offset_alignment = %llu, at most %s elements from its start): the op cannot "
                "be split",
                v.name.c_str(), static_cast<unsigned long long>(o.width * kUnit),
                static_cast<unsigned long long>(limit),
                static_cast<unsigned long long>(call.info.binding_offset_alignment),
                index_limit_text().c_str());
    most = std::min(most, (room - o.width) / std::max<uint64_t>(o.stride, 1) + 1);
  }
  // Pieces of even size (no short last piece), whole granules where one fits;
  // the launchers stay correct on any piece.
  const uint64_t count = (rows + most - 1) / most;
  const uint64_t even = (rows + count - 1) / count;
  if (most >= granule)
    most = std::min(most / granule * granule, (even + granule - 1) / granule * granule);
  else
    most = even;
  for (uint64_t first = 0; first < rows; first += most) {
    piece.first = first;
    piece.count = std::min(most, rows - first);
    size_t i = 0;
    for (const RowOperand& o : operands) {
      if (!o.split) {
        piece.binding[i] = {o.view->buffer, 0, 0};
        piece.offset[i++] = static_cast<uint32_t>(o.view->offset);
        continue;
      }
      const uint64_t start = (o.view->offset + first * o.stride) * kUnit;
      const uint64_t bound = start / align * align;
      const uint64_t end = (o.view->offset + (first + piece.count - 1) * o.stride + o.width) * kUnit;
      piece.binding[i] = {o.view->buffer, bound, end - bound};
      piece.offset[i++] = static_cast<uint32_t>((start - bound) / kUnit);
    }
    body(piece);
  }
}

void for_each_piece(const OpCall& call, std::initializer_list<const View*> views, uint64_t n,
                    uint32_t granule, const std::function<void(const Piece&)>& body) {
  if (views.size() > kMaxPieceOperands)
    call.fail(PORTA_ERROR_INTERNAL, "for_each_piece: %zu operands, more than %zu", views.size(),
              kMaxPieceOperands);
  RowOperand rows[kMaxPieceOperands];
  size_t i = 0;
  for (const View* v : views) rows[i++] = {v, 1, 1, true};
  switch (i) {
    case 1:
      return for_each_row_piece(call, {rows[0]}, n, granule, body);
    case 2:
      return for_each_row_piece(call, {rows[0], rows[1]}, n, granule, body);
    case 3:
      return for_each_row_piece(call, {rows[0], rows[1], rows[2]}, n, granule, body);
    default:
      return for_each_row_piece(call, {rows[0], rows[1], rows[2], rows[3]}, n, granule, body);
  }
}

porta::Buffer scratch_buffer(const OpCall& call, uint64_t bytes) {
  porta_buffer buffer = nullptr;
  const porta_status status = porta_buffer_create(call.device.get(), bytes, &buffer);
  if (status != PORTA_SUCCESS)
    throw porta::Error(status, std::string(call.op) + ": workspace: " + porta_last_error());
  return porta::Buffer(buffer);
}

uint32_t workgroup_size(const porta_device_info& info, uint32_t preferred) {
  const uint32_t limit = std::min(info.limits.max_workgroup_invocations, info.limits.max_workgroup_size[0]);
  uint32_t size = preferred;
  while (size > 1 && size > limit) size /= 2;
  return size;
}

uint32_t grid_groups(const porta_device_info& info, uint64_t n, uint32_t workgroup) {
  // Enough groups to keep every core busy; past that a grid-stride loop does
  // the rest with less launch overhead.
  const uint64_t target = cpu_like(info) ? 256 : 65535;
  uint64_t groups = (n + workgroup - 1) / workgroup;
  groups = std::min<uint64_t>({groups, target, info.limits.max_workgroup_count[0]});
  return static_cast<uint32_t>(std::max<uint64_t>(groups, 1));
}

uint32_t elementwise_groups(const porta_device_info& info, uint64_t n, uint32_t workgroup) {
  if (!cpu_like(info)) return grid_groups(info, n, workgroup);
  const uint64_t groups =
      std::min<uint64_t>((n + workgroup - 1) / workgroup, info.limits.max_workgroup_count[0]);
  return static_cast<uint32_t>(std::max<uint64_t>(groups, 1));
}

bool loop_free_elementwise(const porta_device_info& info, uint32_t groups, uint32_t workgroup, uint64_t items,
                           std::initializer_list<uint32_t> offsets) {
  return cpu_like(info) && uint64_t(groups) * workgroup >= items &&
         std::all_of(offsets.begin(), offsets.end(), [](uint32_t o) { return o == 0; });
}

}  // namespace porta::ops
