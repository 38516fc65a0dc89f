// Host launcher of sigmoid.comp.
#include "grid.hpp"

namespace porta::ops {

void launch_sigmoid(const Call& call, const View& x, const View& out) {
  require_same_shape(call, x, out);
  require_contiguous(call, x);
  require_contiguous(call, out);
  require_disjoint_or_same(call, out, x);
  if (out.elements == 0) return;
  const uint32_t wg = workgroup_size(*call.device, 256);
  // Each item does four elements per step (sigmoid.comp).
  const uint32_t groups = elementwise_groups(*call.device, (out.elements + 3) / 4, wg);
  struct {
    uint32_t n, x_offset, o_offset, stride;
  } push{static_cast<uint32_t>(out.elements), static_cast<uint32_t>(x.offset),
         static_cast<uint32_t>(out.offset), groups * wg};
  dispatch(call, builtin_kernel(call, "sigmoid", {{0, wg}}), groups, 1, {x.buffer, out.buffer}, push);
}

}  // namespace porta::ops
