// Host launcher of fill.comp.
#include "ops/ops.hpp"

namespace porta::ops {

void launch_fill(const Call& call, const View& out, float value) {
  require_contiguous(call, out);
  if (out.elements == 0) return;
  const uint32_t wg = workgroup_size(*call.device, 256);
  const uint32_t groups = grid_groups(*call.device, out.elements, wg);
  struct {
    uint32_t n, offset, stride;
    float value;
  } push{static_cast<uint32_t>(out.elements), static_cast<uint32_t>(out.offset), groups * wg, value};
  dispatch(call, builtin_kernel(call, "fill", {{0, wg}}), groups, 1, {out.buffer}, push);
}

}  // namespace porta::ops
