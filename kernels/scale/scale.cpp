// scale: out = alpha * x, elementwise (scale.comp); out may be x itself.
// Error bound: one IEEE multiply, correctly rounded (kMulUlp, mul/bound.hpp).
#include "common/launch.hpp"
#include "common/tensor_view.hpp"
#include "launchers.hpp"
#include "unary_operands.hpp"

namespace porta::ops {

void launch_scale(porta_stream stream, const porta_tensor* x_tensor, float alpha,
                  const porta_tensor* out_tensor) {
  for_each_unary_piece(
      stream, "porta_ops_scale", x_tensor, out_tensor,
      [alpha](const OpCall& call, const Piece& piece, uint32_t wg) {
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
