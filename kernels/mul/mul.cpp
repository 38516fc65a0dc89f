// mul: out = a * b, elementwise. mul_vec4.comp does the first 4*(n/4)
// elements when every element offset is a multiple of 4 (a vec4 view of a
// float buffer can only start on a 16-byte boundary), mul.comp the remaining
// 1-3 elements or views with unaligned offsets. Error bound: one IEEE
// multiply, correctly rounded (bound.hpp).
#include "common/launch.hpp"
#include "common/tensor_view.hpp"
#include "common/vec4_elementwise.hpp"
#include "launchers.hpp"

namespace porta::ops {

void launch_mul(porta_stream stream, const porta_tensor* a_tensor, const porta_tensor* b_tensor,
                const porta_tensor* out_tensor) {
  const OpCall call = begin_call(stream, "porta_ops_mul");
  const auto [a, b, out] = binary_views(call, a_tensor, b_tensor, out_tensor, Extent::pieces);
  require_same_shape(call, a, b);
  require_same_shape(call, a, out);
  require_contiguous(call, a);
  require_contiguous(call, b);
  require_contiguous(call, out);
  require_disjoint_or_same(call, out, a);
  require_disjoint_or_same(call, out, b);
  if (out.elements == 0) return;
  const uint32_t wg = workgroup_size(call.info, 256);
  // CPU-type devices: an item per element where they may (ONCE, mul.comp).
  auto once = [&](uint32_t groups, uint64_t items, std::initializer_list<uint32_t> offsets) {
    return uint32_t(loop_free_elementwise(call.info, groups, wg, items, offsets));
  };
  for_each_piece(call, {&a, &b, &out}, out.elements, 4, [&](const Piece& piece) {
    const uint64_t n = piece.count;
    const uint32_t a_offset = piece.offset[0], b_offset = piece.offset[1], o_offset = piece.offset[2];
    const auto bindings = {piece.binding[0], piece.binding[1], piece.binding[2]};
    const uint64_t done = dispatch_vec4_part(call, piece, wg, "mul_vec4");
    if (done < n) {
      const uint32_t groups = elementwise_groups(call.info, n - done, wg);
      struct {
        uint32_t n, a_offset, b_offset, o_offset, stride;
      } push{static_cast<uint32_t>(n - done), static_cast<uint32_t>(a_offset + done),
             static_cast<uint32_t>(b_offset + done), static_cast<uint32_t>(o_offset + done), groups * wg};
      const uint32_t loop_free = once(groups, n - done, {push.a_offset, push.b_offset, push.o_offset});
      dispatch_ranges(call, builtin_kernel(call, "mul", {{0, wg}, {1, loop_free}}), groups, 1, bindings,
                      &push, sizeof push);
    }
  });
}

}  // namespace porta::ops
