// scale: out = alpha * x, elementwise (scale.comp); out may be x itself.
// Error bound: one IEEE multiply, correctly rounded (kMulUlp, mul/bound.hpp).
#include "common/launch.hpp"
#include "common/tensor_view.hpp"
#include "launchers.hpp"
#include "unary_operands.hpp"

namespace porta::ops {

void launch_scale(porta_stream stream, const porta_tensor* x_tensor, float alpha,
                  const porta_tensor* out_tensor) {
  const OpCall call = begin_call(stream, "porta_ops_scale");
  const auto [x, out] = unary_operands(call, x_tensor, out_tensor);
  if (out.elements == 0) return;
  const uint32_t wg = workgroup_size(call.info, 256);
  for_each_piece(call, {&x, &out}, out.elements, 4, [&](const Piece& piece) {
    const uint32_t groups = grid_groups(call.info, piece.count, wg);
    struct {
      uint32_t n, x_offset, o_offset, stride;
      float alpha;
    } push{static_cast<uint32_t>(piece.count), piece.offset[0], piece.offset[1], groups * wg, alpha};
    dispatch_ranges(call, builtin_kernel(call, "scale", {{0, wg}}), groups, 1,
                    {piece.binding[0], piece.binding[1]}, &push, sizeof push);
  });
}

}  // namespace porta::ops
