// sigmoid: out = 1 / (1 + exp(-x)), elementwise (sigmoid.comp, four elements
// per item and step). Error bound: bound.hpp.
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
  const uint32_t groups = elementwise_groups(call.info, (out.elements + 3) / 4, wg);
  struct {
    uint32_t n, x_offset, o_offset, stride;
  } push{static_cast<uint32_t>(out.elements), static_cast<uint32_t>(x.offset),
         static_cast<uint32_t>(out.offset), groups * wg};
  dispatch(call, builtin_kernel(call, "sigmoid", {{0, wg}}), groups, 1, {x.buffer, out.buffer}, push);
}

}  // namespace porta::ops
