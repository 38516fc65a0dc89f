// Every op's launcher, with its C entry point's parameters (porta_ops_* in
// porta.h): checks the operands, picks groups and specialization constants
// for the stream's device and queues the op's kernels, on the public API
// alone. A refusal throws porta::Error, which the C entry point catches at its
// boundary. One line per op; each is defined in kernels/NAME/.
#pragma once

#include <cstdint>

#include "porta/porta.h"

namespace porta::ops {

void launch_fill(porta_stream stream, const porta_tensor* out, float value);
void launch_scale(porta_stream stream, const porta_tensor* x, float alpha, const porta_tensor* out);
void launch_mul(porta_stream stream, const porta_tensor* a, const porta_tensor* b, const porta_tensor* out);
void launch_add(porta_stream stream, const porta_tensor* a, const porta_tensor* b, const porta_tensor* out);
void launch_dense(porta_stream stream, const porta_tensor* x, const porta_tensor* w, const porta_tensor* b,
                  porta_gemm_activation activation, const porta_tensor* y);
void launch_sigmoid(porta_stream stream, const porta_tensor* x, const porta_tensor* out);
void launch_matmul(porta_stream stream, const porta_tensor* a, const porta_tensor* b, const porta_tensor* c,
                   float alpha, float beta, bool trans_a, bool trans_b);
void launch_gemm(porta_stream stream, const porta_gemm_desc* desc);
void logreg_workspace_size(porta_device device, uint64_t m, uint64_t d, uint64_t* bytes);
// The step (sums null: loss) or the gradient's sums (sums given, loss and lr
// unused). x_scale: int8 X's scale per column, else null; `function`: the C
// entry point, which messages name.
void launch_logreg(porta_stream stream, const porta_tensor* x, const porta_tensor* x_scale,
                   const porta_tensor* y, const porta_tensor* w, const porta_tensor* b, float lr,
                   const porta_tensor* loss, const porta_tensor* sums, const porta_tensor* workspace,
                   const char* function);

}  // namespace porta::ops
