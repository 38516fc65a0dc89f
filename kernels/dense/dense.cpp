// dense: y = act(x W^T + b), a fully connected layer in PyTorch's nn.Linear
// layout (W is out_features x in_features), as one GEMM whose epilogue adds
// the bias and applies the activation (kernels/matmul: its BIAS and
// ACTIVATION specialization constants), so nothing is written twice. A rank-1
// x (one sample) is the 1 x in matrix over the same elements. Error bound:
// gemm's with alpha 1 and beta 0 (kernels/matmul/bound.hpp).
#include <string>

#include "common/op_call.hpp"
#include "common/tensor_view.hpp"
#include "launchers.hpp"
#include "porta/porta.hpp"

namespace porta::ops {

namespace {

// `t` as a rank-2 view: a rank-1 tensor becomes one row.
porta_tensor as_matrix(const porta_tensor& t) {
  if (t.rank != 1) return t;
  porta_tensor m = t;
  m.rank = 2;
  m.shape[0] = 1;
  m.shape[1] = t.shape[0];
  const int64_t step = t.strides[0] ? t.strides[0] : 1;
  m.strides[0] = step * static_cast<int64_t>(t.shape[0]);
  m.strides[1] = step;
  return m;
}

}  // namespace

void launch_dense(porta_stream stream, const porta_tensor* x_tensor, const porta_tensor* w_tensor,
                  const porta_tensor* b_tensor, porta_gemm_activation activation,
                  const porta_tensor* y_tensor) {
  const OpCall call = begin_call(stream, "porta_ops_dense");
  require_float32(call, {x_tensor, w_tensor, b_tensor, y_tensor}, {"x", "w", "b", "y"});
  const View y = view(call, y_tensor, "y");
  const View b = b_tensor ? view(call, b_tensor, "b") : View{};
  const View w = view(call, w_tensor, "w"), x = view(call, x_tensor, "x");
  require_rank(call, w, 2);
  if (x.rank != 1 && x.rank != 2)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand 'x' has rank %u; expected 2 (batch x in) or 1 (in)",
              x.rank);
  if (y.rank != x.rank)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand 'y' has rank %u; expected %u, x's rank", y.rank, x.rank);
  const uint64_t in = x.shape[x.rank - 1], out = w.shape[0], batch = x.rank == 2 ? x.shape[0] : 1;
  if (w.shape[1] != in)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT,
              "operand 'w' %s has %llu input features but x %s has %llu; w is out x in (nn.Linear's layout)",
              w.shape_text().c_str(), static_cast<unsigned long long>(w.shape[1]), x.shape_text().c_str(),
              static_cast<unsigned long long>(in));
  const uint64_t y_rows = y.rank == 2 ? y.shape[0] : 1;
  if (y_rows != batch || y.shape[y.rank - 1] != out) {
    View expected = y;
    expected.shape[0] = batch;
    expected.shape[y.rank - 1] = out;
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand 'y' is %s; expected %s", y.shape_text().c_str(),
              expected.shape_text().c_str());
  }
  if (b_tensor && (b.rank != 1 || b.shape[0] != out))
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand 'b' is %s; expected [%llu] (w's output features)",
              b.shape_text().c_str(), static_cast<unsigned long long>(out));
  const porta_tensor xm = as_matrix(*x_tensor), ym = as_matrix(*y_tensor);
  porta_gemm_desc desc{};
  desc.struct_size = sizeof desc;
  desc.a = &xm;
  desc.b = w_tensor;
  desc.c = &ym;
  desc.alpha = 1.0f;
  desc.beta = 0.0f;
  desc.trans_b = 1;
  desc.bias = b_tensor;
  desc.activation = activation;
  try {
    launch_gemm(stream, &desc);
  } catch (const Error& e) {
    // The GEMM's refusal, as dense's: its operands A, B, C are x, w, y here.
    std::string message = e.what();
    const std::string gemm = "porta_ops_gemm";
    if (message.compare(0, gemm.size(), gemm) == 0)
      message = std::string(call.op) + " (x as A, w as B, y as C)" + message.substr(gemm.size());
    throw Error(e.status(), message);
  }
}

}  // namespace porta::ops
