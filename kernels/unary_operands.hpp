// The operands of an elementwise op out = f(x) (scale, sigmoid): float32,
// the same shape, contiguous, and out either x itself or apart from it.
#pragma once

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
  View out = view(call, out_tensor, "out");
  View x = view(call, x_tensor, "x");
  require_same_shape(call, x, out);
  require_contiguous(call, x);
  require_contiguous(call, out);
  require_disjoint_or_same(call, out, x);
  return {std::move(x), std::move(out)};
}

}  // namespace porta::ops
