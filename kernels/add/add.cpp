// add: out = a + b, elementwise with NumPy broadcasting (add.comp). out has
// the broadcast shape of a and b and is contiguous; a and b are any views
// (strides >= 0) whose dimensions, aligned from the last, equal out's or are 1
// (a missing leading dimension counts as 1): a bias row over the rows of a
// matrix, a column over its columns, a scalar over everything. Same-shape
// contiguous operands take the plain path, split into binding ranges and
// four floats at a time like mul (add_vec4.comp); broadcasting binds whole
// buffers. Error bound: one IEEE add, correctly
// rounded (bound.hpp).
#include "common/launch.hpp"
#include "common/tensor_view.hpp"
#include "common/vec4_elementwise.hpp"
#include "launchers.hpp"

namespace porta::ops {

namespace {

// The strides of `v` as a view of out's 4-dimensional padded shape: 0 where
// v is broadcast, and in front of v's own dimensions.
void broadcast_strides(const OpCall& call, const View& v, const View& out, uint32_t strides[4]) {
  if (v.rank > out.rank)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand '%s' %s has more dimensions than out %s", v.name.c_str(),
              v.shape_text().c_str(), out.shape_text().c_str());
  for (uint32_t d = 0; d < 4; ++d) strides[d] = 0;
  const uint32_t lead = out.rank - v.rank;
  for (uint32_t i = 0; i < v.rank; ++i) {
    const uint64_t n = v.shape[i], want = out.shape[lead + i];
    if (n != want && n != 1)
      call.fail(PORTA_ERROR_INVALID_ARGUMENT,
                "operand '%s' %s does not broadcast to out %s: dimension %u is %llu, expected %llu or 1",
                v.name.c_str(), v.shape_text().c_str(), out.shape_text().c_str(), i,
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(want));
    strides[4 - v.rank + i] = n == 1 ? 0 : static_cast<uint32_t>(v.strides[i]);
  }
}

bool same_shape(const View& a, const View& b) {
  if (a.rank != b.rank) return false;
  for (uint32_t i = 0; i < a.rank; ++i)
    if (a.shape[i] != b.shape[i]) return false;
  return true;
}

}  // namespace

void launch_add(porta_stream stream, const porta_tensor* a_tensor, const porta_tensor* b_tensor,
                const porta_tensor* out_tensor) {
  const OpCall call = begin_call(stream, "porta_ops_add");
  // Any size on the plain path, which splits; broadcasting binds whole
  // buffers, so there every view must be within 32-bit indices.
  const auto [a, b, out] = binary_views(call, a_tensor, b_tensor, out_tensor, Extent::pieces);
  require_contiguous(call, out);
  uint32_t a_strides[4], b_strides[4];
  broadcast_strides(call, a, out, a_strides);
  broadcast_strides(call, b, out, b_strides);
  // out must be the broadcast shape itself: no dimension of out that neither
  // operand reaches beyond 1 (that would be a silent repeat of the sum).
  for (uint32_t i = 0; i < out.rank; ++i) {
    const bool a_has = i + a.rank >= out.rank && a.shape[i + a.rank - out.rank] == out.shape[i];
    const bool b_has = i + b.rank >= out.rank && b.shape[i + b.rank - out.rank] == out.shape[i];
    if (out.shape[i] != 1 && !a_has && !b_has)
      call.fail(
          PORTA_ERROR_INVALID_ARGUMENT,
          "out %s is not the broadcast shape of a %s and b %s: dimension %u is %llu, but a and b have 1",
          out.shape_text().c_str(), a.shape_text().c_str(), b.shape_text().c_str(), i,
          static_cast<unsigned long long>(out.shape[i]));
  }
  require_disjoint_or_same(call, out, a);
  require_disjoint_or_same(call, out, b);
  if (out.elements == 0) return;
  const uint32_t wg = workgroup_size(call.info, 256);
  struct {
    uint32_t shape[4], a_strides[4], b_strides[4];
    uint32_t n, a_offset, b_offset, o_offset, stride;
  } push{};
  if (same_shape(a, out) && same_shape(b, out) && a.contiguous && b.contiguous) {
    // As mul: add_vec4.comp for the first 4*(n/4) elements where every
    // element offset is a multiple of 4 (common/vec4_elementwise.hpp),
    // add.comp for the tail and the rest.
    for_each_piece(call, {&a, &b, &out}, out.elements, 4, [&](const Piece& piece) {
      const uint64_t n = piece.count;
      const uint64_t done = dispatch_vec4_part(call, piece, wg, "add_vec4");
      if (done == n) return;
      const uint32_t groups = elementwise_groups(call.info, n - done, wg);
      push.n = static_cast<uint32_t>(n - done);
      push.a_offset = static_cast<uint32_t>(piece.offset[0] + done);
      push.b_offset = static_cast<uint32_t>(piece.offset[1] + done);
      push.o_offset = static_cast<uint32_t>(piece.offset[2] + done);
      push.stride = groups * wg;
      dispatch_ranges(call, builtin_kernel(call, "add", {{0, wg}, {1, 0}}), groups, 1,
                      {piece.binding[0], piece.binding[1], piece.binding[2]}, &push, sizeof push);
    });
    return;
  }
  for (const View* v : {&out, &b, &a}) require_indexed(call, *v, "broadcasting binds it whole");
  for (uint32_t d = 0; d < 4; ++d) push.shape[d] = 1;
  for (uint32_t i = 0; i < out.rank; ++i) push.shape[4 - out.rank + i] = static_cast<uint32_t>(out.shape[i]);
  for (uint32_t d = 0; d < 4; ++d) {
    push.a_strides[d] = a_strides[d];
    push.b_strides[d] = b_strides[d];
  }
  const uint32_t groups = elementwise_groups(call.info, out.elements, wg);
  push.n = static_cast<uint32_t>(out.elements);
  push.a_offset = static_cast<uint32_t>(a.offset);
  push.b_offset = static_cast<uint32_t>(b.offset);
  push.o_offset = static_cast<uint32_t>(out.offset);
  push.stride = groups * wg;
  dispatch(call, builtin_kernel(call, "add", {{0, wg}, {1, 1}}), groups, 1, {a.buffer, b.buffer, out.buffer},
           &push, sizeof push);
}

}  // namespace porta::ops
