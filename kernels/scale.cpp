// Host launcher of scale.comp.
#include "ops/ops.hpp"

namespace porta::ops {

void launch_scale(const Call& call, const View& x, float alpha, const View& out) {
  require_same_shape(call, x, out);
  require_contiguous(call, x);
  require_contiguous(call, out);
  require_disjoint_or_same(call, out, x);
  if (out.elements == 0) return;
  const uint32_t wg = workgroup_size(*call.device, 256);
  const uint32_t groups = grid_groups(*call.device, out.elements, wg);
  struct {
    uint32_t n, x_offset, o_offset, stride;
    float alpha;
  } push{static_cast<uint32_t>(out.elements), static_cast<uint32_t>(x.offset), static_cast<uint32_t>(out.offset),
         groups * wg, alpha};
  dispatch(call, builtin_kernel(call, "scale", {{0, wg}}), groups, 1, {x.buffer, out.buffer}, push);
}

}  // namespace porta::ops
