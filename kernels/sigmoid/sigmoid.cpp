// sigmoid: out = 1 / (1 + exp(-x)), elementwise (sigmoid.comp: four elements
// per item and step on GPUs, one per item on CPU-type devices). Error bound: bound.hpp.
#include "common/launch.hpp"
#include "common/tensor_view.hpp"
#include "launchers.hpp"
#include "unary_operands.hpp"

namespace porta::ops {

void launch_sigmoid(porta_stream stream, const porta_tensor* x_tensor, const porta_tensor* out_tensor) {
  for_each_unary_piece(
      stream, "porta_ops_sigmoid", x_tensor, out_tensor,
      [](const OpCall& call, const Piece& piece, uint32_t wg) {
        // CPU-type devices: an item per element where they may (ONCE).
        const uint32_t once_groups = elementwise_groups(call.info, piece.count, wg);
        const uint32_t once = loop_free_elementwise(call.info, once_groups, wg, piece.count,
                                                    {piece.offset[0], piece.offset[1]});
        const uint32_t groups = once ? once_groups : elementwise_groups(call.info, (piece.count + 3) / 4, wg);
        struct {
          uint32_t n, x_offset, o_offset, stride;
        } push{static_cast<uint32_t>(piece.count), piece.offset[0], piece.offset[1], groups * wg};
        dispatch_ranges(call, builtin_kernel(call, "sigmoid", {{0, wg}, {1, once}}), groups, 1,
                        {piece.binding[0], piece.binding[1]}, &push, sizeof push);
      });
}

}  // namespace porta::ops
