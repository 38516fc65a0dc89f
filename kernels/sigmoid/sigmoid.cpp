// sigmoid: out = 1 / (1 + exp(-x)), elementwise (sigmoid.comp: four elements
// per item and step on GPUs, one per item on CPU-type devices). Error bound: bound.hpp.
#include "common/device_traits.hpp"
#include "common/launch.hpp"
#include "common/tensor_view.hpp"
#include "launchers.hpp"
#include "unary_operands.hpp"

namespace porta::ops {

void launch_sigmoid(porta_stream stream, const porta_tensor* x_tensor, const porta_tensor* out_tensor) {
  const OpCall call = begin_call(stream, "porta_ops_sigmoid");
  const auto [x, out] = unary_operands(call, x_tensor, out_tensor);
  if (out.elements == 0) return;
  const uint32_t wg = workgroup_size(call.info, 256);
  for_each_piece(call, {&x, &out}, out.elements, 4, [&](const Piece& piece) {
    // CPU-type devices: an item per element where the grid allows and both
    // operands start their bindings (ONCE: no loop and no offsets).
    const uint32_t once_groups = elementwise_groups(call.info, piece.count, wg);
    const uint32_t once = cpu_like(call.info) && uint64_t(once_groups) * wg >= piece.count &&
                          piece.offset[0] == 0 && piece.offset[1] == 0;
    const uint32_t groups = once ? once_groups : elementwise_groups(call.info, (piece.count + 3) / 4, wg);
    struct {
      uint32_t n, x_offset, o_offset, stride;
    } push{static_cast<uint32_t>(piece.count), piece.offset[0], piece.offset[1], groups * wg};
    dispatch_ranges(call, builtin_kernel(call, "sigmoid", {{0, wg}, {1, once}}), groups, 1,
                    {piece.binding[0], piece.binding[1]}, &push, sizeof push);
  });
}

}  // namespace porta::ops
