// What every launcher does on the public API: make its built-in kernels,
// queue them, allocate a workspace, and size work-groups and grids for the
// device.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>

#include "device_traits.hpp"
#include "op_call.hpp"
#include "tensor_view.hpp"

namespace porta::ops {

// A kernel handle a call owns and destroys, as DeviceHandle (op_call.hpp).
struct KernelDestroyer {
  void operator()(porta_kernel kernel) const { porta_kernel_destroy(kernel); }
};
using KernelHandle = std::unique_ptr<porta_kernel_t, KernelDestroyer>;

// The built-in kernel `name` (kernels/*/NAME.comp) for the call's device with
// these specialization constants: built the first time, then the device's
// own copy (porta_kernel_create with PORTA_KERNEL_FLAG_REUSE and the reuse key
// "porta.ops.NAME", so the SPIR-V is read only the first time).
// `flags`: porta_kernel_flag bits beside REUSE (PORTA_KERNEL_FLAG_ALLOW_TF32).
KernelHandle builtin_kernel(const OpCall& call, const char* name, const porta_spec_constant* specs,
                            size_t spec_count, uint32_t flags = 0);
inline KernelHandle builtin_kernel(const OpCall& call, const char* name,
                                   std::initializer_list<porta_spec_constant> specs) {
  return builtin_kernel(call, name, specs.begin(), specs.size());
}

// Whether libporta holds the built-in kernel `name` (a build without
// glslangValidator 13 has no cooperative-matrix kernels).
bool has_builtin_kernel(const char* name);

// Queues the kernel through porta_stream_dispatch (its checks, recording,
// keep-alive); a failure names the op.
void dispatch(const OpCall& call, const KernelHandle& kernel, uint32_t groups_x, uint32_t groups_y,
              std::initializer_list<porta_buffer> buffers, const void* push, uint32_t push_size);
template <class Push>
void dispatch(const OpCall& call, const KernelHandle& kernel, uint32_t groups_x, uint32_t groups_y,
              std::initializer_list<porta_buffer> buffers, const Push& push) {
  dispatch(call, kernel, groups_x, groups_y, buffers, &push, sizeof(Push));
}

// As dispatch(), with buffer ranges (porta_stream_dispatch_bindings).
void dispatch_ranges(const OpCall& call, const KernelHandle& kernel, uint32_t groups_x, uint32_t groups_y,
                     std::initializer_list<porta_binding> bindings, const void* push, uint32_t push_size);

// One piece of an op: rows [first, first + count) (elementwise ops: elements)
// of its float32 operands, operand i bound as `binding[i]`, its piece
// starting `offset[i]` elements into that range.
constexpr size_t kMaxPieceOperands = 4;
struct Piece {
  uint64_t first = 0, count = 0;
  porta_binding binding[kMaxPieceOperands] = {};
  uint32_t offset[kMaxPieceOperands] = {};
};

// An operand of an op split by rows: row r of `view` is `width` 4-byte units
// (float32 elements, or words of `pack` narrower elements) from unit offset +
// r * stride. The kernel indexes its elements (units times `pack`) with 32-bit
// integers. An operand that is not split is bound whole.
struct RowOperand {
  const View* view = nullptr;
  uint64_t stride = 1, width = 1;
  bool split = true;
  uint32_t pack = 1;
};

// Calls `body` for pieces that cover `rows` rows in order (piece.first,
// piece.count), with binding[i] and offset[i] for operand i. Operands whose
// buffers the device binds whole, and whose elements the kernels' 32-bit
// indices reach (max_index_elements()), make one piece of whole buffers (the
// views' own offsets). Otherwise each piece binds a range of each split
// operand: at most max_binding_bytes, whose elements a 32-bit index reaches
// from the range's start, at offsets on binding_offset_alignment and 16 bytes
// (so views whose element offsets are multiples of 4 stay vec4-aligned); the
// pieces are of even size, whole `granule`s of rows where one fits. An operand
// that is not split but larger than the limit or beyond 32-bit indices, or a
// row that does not fit one binding, is refused, naming the limit.
void for_each_row_piece(const OpCall& call, std::initializer_list<RowOperand> operands, uint64_t rows,
                        uint32_t granule, const std::function<void(const Piece&)>& body);
// for_each_row_piece over n elements of contiguous views (rows of one element).
void for_each_piece(const OpCall& call, std::initializer_list<const View*> views, uint64_t n,
                    uint32_t granule, const std::function<void(const Piece&)>& body);

// A buffer for one op's intermediate results; the dispatches that use it keep
// it alive (also in a recorded sequence), so it may go once they are queued.
porta::Buffer scratch_buffer(const OpCall& call, uint64_t bytes);

// A power-of-two work-group size <= `preferred` the device allows.
uint32_t workgroup_size(const porta_device_info& info, uint32_t preferred);

// Groups for a grid-stride loop over n items: enough to fill the device,
// within its group-count limit.
uint32_t grid_groups(const porta_device_info& info, uint64_t n, uint32_t workgroup);

// Groups for the elementwise kernels' grid-stride loops. GPUs: grid_groups().
// CPU-type devices run a group's items one after another, so a stride makes
// every item walk the whole array in steps of the grid: one cache line per
// step, and no prefetching. There the grid covers the range (up to the
// group-count limit) and each item's range stays next to its neighbours'.
uint32_t elementwise_groups(const porta_device_info& info, uint64_t n, uint32_t workgroup);

// Whether an elementwise kernel may take one element per item with no loop and
// no offsets (the ONCE constant of kernels/mul and kernels/sigmoid): on
// CPU-type devices, where a group's items run as the lanes of a SIMD loop that
// vectorises only straight-line code whose items read consecutive elements,
// when `groups` groups of `workgroup` items cover `items` and every operand
// starts its binding.
bool loop_free_elementwise(const porta_device_info& info, uint32_t groups, uint32_t workgroup, uint64_t items,
                           std::initializer_list<uint32_t> offsets);

}  // namespace porta::ops
