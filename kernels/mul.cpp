// Host launcher of mul_vec4.comp and mul.comp: the vec4 kernel for the first
// 4*(n/4) elements when every element offset is a multiple of 4 (a vec4 view
// of a float buffer can only start on a 16-byte boundary), the scalar kernel
// for the remaining 1-3 elements or for views with unaligned offsets.
#include "grid.hpp"

namespace porta::ops {

void launch_mul(const Call& call, const View& a, const View& b, const View& out) {
  require_same_shape(call, a, b);
  require_same_shape(call, a, out);
  require_contiguous(call, a);
  require_contiguous(call, b);
  require_contiguous(call, out);
  require_disjoint_or_same(call, out, a);
  require_disjoint_or_same(call, out, b);
  const uint64_t n = out.elements;
  if (n == 0) return;
  const DeviceState& device = *call.device;
  const uint32_t wg = workgroup_size(device, 256);
  const bool aligned = a.offset % 4 == 0 && b.offset % 4 == 0 && out.offset % 4 == 0;
  const uint64_t vec4s = aligned ? n / 4 : 0;
  if (vec4s > 0) {
    const uint32_t groups = elementwise_groups(device, vec4s, wg);
    struct {
      uint32_t n4, a_offset4, b_offset4, o_offset4, stride;
    } push{static_cast<uint32_t>(vec4s), static_cast<uint32_t>(a.offset / 4),
           static_cast<uint32_t>(b.offset / 4), static_cast<uint32_t>(out.offset / 4), groups * wg};
    dispatch(call, builtin_kernel(call, "mul_vec4", {{0, wg}}), groups, 1, {a.buffer, b.buffer, out.buffer},
             push);
  }
  const uint64_t done = vec4s * 4;
  if (done < n) {
    const uint32_t groups = elementwise_groups(device, n - done, wg);
    struct {
      uint32_t n, a_offset, b_offset, o_offset, stride;
    } push{static_cast<uint32_t>(n - done), static_cast<uint32_t>(a.offset + done),
           static_cast<uint32_t>(b.offset + done), static_cast<uint32_t>(out.offset + done), groups * wg};
    dispatch(call, builtin_kernel(call, "mul", {{0, wg}}), groups, 1, {a.buffer, b.buffer, out.buffer}, push);
  }
}

}  // namespace porta::ops
