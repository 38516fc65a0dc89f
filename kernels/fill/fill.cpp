// fill: out[...] = value (fill.comp, a grid-stride loop). Exact: the same
// bits on every backend, so no error bound.
#include "common/launch.hpp"
#include "common/tensor_view.hpp"
#include "launchers.hpp"

namespace porta::ops {

void launch_fill(porta_stream stream, const porta_tensor* out_tensor, float value) {
  const OpCall call = begin_call(stream, "porta_ops_fill");
  require_float32(call, {out_tensor}, {"out"});
  const View out = view(call, out_tensor, "out", PORTA_DTYPE_FLOAT32, Extent::pieces);
  require_contiguous(call, out);
  if (out.elements == 0) return;
  const uint32_t wg = workgroup_size(call.info, 256);
  for_each_piece(call, {&out}, out.elements, 4, [&](const Piece& piece) {
    const uint32_t groups = grid_groups(call.info, piece.count, wg);
    struct {
      uint32_t n, offset, stride;
      float value;
    } push{static_cast<uint32_t>(piece.count), piece.offset[0], groups * wg, value};
    dispatch_ranges(call, builtin_kernel(call, "fill", {{0, wg}}), groups, 1, {piece.binding[0]}, &push,
                    sizeof push);
  });
}

}  // namespace porta::ops
