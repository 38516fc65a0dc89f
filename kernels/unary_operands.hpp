// The operands of an elementwise op out = f(x) (scale, sigmoid): float32,
// the same shape, contiguous, and out either x itself or apart from it; and
// the launch such an op starts with.
#pragma once

#include "common/launch.hpp"
#include "common/op_call.hpp"
#include "common/tensor_view.hpp"

namespace porta::ops {

struct UnaryOperands {
  View x, out;
};

inline UnaryOperands unary_operands(const OpCall& call, const porta_tensor* x_tensor,
                                    const porta_tensor* out_tensor) {
  require_float32(call, {x_tensor, out_tensor}, {"x", "out"});
  // Checked last first, like every op's operands.
  // Any size: the launch splits them into pieces (for_each_piece).
  View out = view(call, out_tensor, "out", PORTA_DTYPE_FLOAT32, Extent::pieces);
  View x = view(call, x_tensor, "x", PORTA_DTYPE_FLOAT32, Extent::pieces);
  require_same_shape(call, x, out);
  require_contiguous(call, x);
  require_contiguous(call, out);
  require_disjoint_or_same(call, out, x);
  return {std::move(x), std::move(out)};
}

// The launch of an elementwise op out = f(x): the operands checked, then
// body(call, piece, workgroup) for each piece of the range (nothing when empty).
template <class Body>
void for_each_unary_piece(porta_stream stream, const char* op, const porta_tensor* x_tensor,
                          const porta_tensor* out_tensor, Body body) {
  const OpCall call = begin_call(stream, op);
  const auto [x, out] = unary_operands(call, x_tensor, out_tensor);
  if (out.elements == 0) return;
  const uint32_t wg = workgroup_size(call.info, 256);
  for_each_piece(call, {&x, &out}, out.elements, 4, [&](const Piece& piece) { body(call, piece, wg); });
}

}  // namespace porta::ops
