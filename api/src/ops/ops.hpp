// The ops layer inside libporta: validated tensor views, the per-device table
// of built-in kernels, and the launchers (kernels/*.cpp) that check an op's
// shapes, pick groups and specialization constants and queue its kernels.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>

#include "errors.hpp"
#include "handles.hpp"

namespace porta::ops {

// The SPIR-V of every kernel in kernels/, generated at build time.
struct EmbeddedSpirv {
  const char* name;
  const uint32_t* words;
  size_t word_count;
};
extern const EmbeddedSpirv kEmbeddedSpirv[];
extern const size_t kEmbeddedSpirvCount;

// One op call: the stream it queues on and the op's name for messages.
struct Call {
  porta_stream stream = nullptr;
  DeviceRef device;
  const char* op = "";
  // Fails with "<op> on <device>: <message>".
  [[noreturn, gnu::format(printf, 3, 4)]] void fail(porta_status status, const char* fmt, ...) const;
};

// The stream's call context; checks the stream handle.
Call begin_call(porta_stream stream, const char* op);

// Kernels index with 32-bit unsigned integers; views stay below this.
constexpr uint64_t kMaxElements = (uint64_t(1) << 31) - 1;

// A checked porta_tensor.
struct View {
  std::string name;  // the operand's name in messages
  porta_buffer buffer = nullptr;
  const BufferState* state = nullptr;
  uint32_t rank = 0;
  uint64_t shape[PORTA_TENSOR_MAX_RANK] = {};
  int64_t strides[PORTA_TENSOR_MAX_RANK] = {};  // explicit, never all-zero
  uint64_t offset = 0;
  uint64_t elements = 0;           // product of the shape
  uint64_t begin = 0, end = 0;     // elements of the buffer it may touch: [begin, end)
  bool contiguous = false;         // row-major without gaps
  std::string shape_text() const;  // "[5, 2]"
};

// Checks the tensor (null, buffer handle and device, dtype float32, rank,
// strides >= 0, range inside the buffer, 32-bit indexing).
View view(const Call& call, const porta_tensor* tensor, const char* name);
// Checks that all operands have the same dtype, then that it is float32.
void require_float32(const Call& call, std::initializer_list<const porta_tensor*> tensors,
                     std::initializer_list<const char*> names);
void require_rank(const Call& call, const View& v, uint32_t rank);
void require_contiguous(const Call& call, const View& v);
void require_same_shape(const Call& call, const View& a, const View& b);
// Whether two views may touch the same memory.
bool overlaps(const View& a, const View& b);
// Whether two views are the same elements in the same order.
bool same_view(const View& a, const View& b);
// Row stride of a rank-2 view with unit column stride (fails otherwise).
uint32_t row_stride(const Call& call, const View& v);
// `out` must share no memory with `in`.
void require_disjoint(const Call& call, const View& out, const View& in);
// `out` may be `in` itself (elementwise ops), but must not partly overlap it.
void require_disjoint_or_same(const Call& call, const View& out, const View& in);

// The built-in kernel `name` for the call's device with these specialization
// constants, built on first use and kept in DeviceState::builtin_kernels.
std::shared_ptr<KernelState> builtin_kernel(const Call& call, const char* name,
                                            std::initializer_list<porta_spec_constant> specs);
// Queues the kernel through porta_stream_dispatch (its checks, recording,
// keep-alive); a failure becomes a Failure naming the op.
void dispatch(const Call& call, const std::shared_ptr<KernelState>& kernel, uint32_t groups_x,
              uint32_t groups_y, std::initializer_list<porta_buffer> buffers, const void* push,
              uint32_t push_size);
template <class Push>
void dispatch(const Call& call, const std::shared_ptr<KernelState>& kernel, uint32_t groups_x,
              uint32_t groups_y, std::initializer_list<porta_buffer> buffers, const Push& push) {
  dispatch(call, kernel, groups_x, groups_y, buffers, &push, sizeof(Push));
}

// A buffer for one op's intermediate results; the dispatches that use it keep
// it alive (also in a recorded sequence), so it may go once they are queued.
struct ScratchBuffer {
  ScratchBuffer(const Call& call, uint64_t bytes);
  ~ScratchBuffer();
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;
  porta_buffer buffer = nullptr;
};

// ---- what launchers choose from ----------------------------------------------

// CPU-type devices (porta's CPU backend, lavapipe, PoCL): work-items are
// loop iterations or fibers, so smaller groups cost less at barriers.
bool cpu_like(const DeviceState& device);
// porta's own CPU backend, whose built-in kernels are compiled with each
// kernel's defaults: launchers that pick those defaults there need no compiler.
bool porta_cpu_backend(const DeviceState& device);
// A power-of-two work-group size <= `preferred` the device allows.
uint32_t workgroup_size(const DeviceState& device, uint32_t preferred);
// Groups for a grid-stride loop over n items: enough to fill the device,
// within its group-count limit.
uint32_t grid_groups(const DeviceState& device, uint64_t n, uint32_t workgroup);

// ---- launchers (kernels/*.cpp) -------------------------------------------------

void launch_fill(const Call& call, const View& out, float value);
void launch_scale(const Call& call, const View& x, float alpha, const View& out);
void launch_mul(const Call& call, const View& a, const View& b, const View& out);
void launch_sigmoid(const Call& call, const View& x, const View& out);
void launch_matmul(const Call& call, const View& a, const View& b, const View& c, float alpha, float beta,
                   bool trans_a, bool trans_b);

struct LogregPlan {
  uint32_t workgroup = 0;        // items per group of logreg_partial
  uint32_t mode = 0;             // logreg_partial's MODE: 0 tiles, 1 columns in registers
  uint32_t rows_per_tile = 0;    // rows per tile (MODE 0) or per step (MODE 1: spec constant R)
  uint32_t columns = 1;          // MODE 1: columns per item (spec constant C)
  uint32_t lanes = 0;            // MODE 0: items per row for z (1, or workgroup / rows)
  uint32_t tiles_per_group = 0;  // tiles (MODE 0) or steps (MODE 1) per group
  uint32_t groups = 0;
  uint64_t workspace_floats = 0;  // groups * (d + 2)
};
LogregPlan plan_logreg(const Call& call, uint64_t m, uint64_t d);
void launch_logreg_step(const Call& call, const View& x, const View& y, const View& w, const View& b,
                        float lr, const View& loss, const View* workspace);

}  // namespace porta::ops
