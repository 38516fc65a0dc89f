// C API of the ops: each porta_ops_* runs its op's launcher (kernels/NAME/,
// written on the public API alone; porta_parallel_*: parallel/) and turns the porta::Error it throws into
// the returned status and porta_last_error() here, once.
#include "errors.hpp"
#include "launchers.hpp"
#include "logreg_train.hpp"
#include "porta/porta.hpp"

namespace {

template <class Launch>
porta_status run_op(const Launch& launch) noexcept {
  porta::core::clear_last_error();
  porta_status refused = PORTA_SUCCESS;
  const porta_status status = porta::core::guard([&] {
    try {
      launch();
    } catch (const porta::Error& e) {
      refused = e.status();
      porta::core::report_error(refused, e.what());
    }
  });
  return status != PORTA_SUCCESS ? status : refused;
}

}  // namespace

using namespace porta::ops;

extern "C" {

porta_status porta_ops_fill(porta_stream stream, const porta_tensor* out, float value) {
  return run_op([&] { launch_fill(stream, out, value); });
}

porta_status porta_ops_scale(porta_stream stream, const porta_tensor* x, float alpha,
                             const porta_tensor* out) {
  return run_op([&] { launch_scale(stream, x, alpha, out); });
}

porta_status porta_ops_mul(porta_stream stream, const porta_tensor* a, const porta_tensor* b,
                           const porta_tensor* out) {
  return run_op([&] { launch_mul(stream, a, b, out); });
}

porta_status porta_ops_add(porta_stream stream, const porta_tensor* a, const porta_tensor* b,
                           const porta_tensor* out) {
  return run_op([&] { launch_add(stream, a, b, out); });
}

porta_status porta_ops_dense(porta_stream stream, const porta_tensor* x, const porta_tensor* w,
                             const porta_tensor* b, porta_gemm_activation activation, const porta_tensor* y) {
  return run_op([&] { launch_dense(stream, x, w, b, activation, y); });
}

porta_status porta_ops_sigmoid(porta_stream stream, const porta_tensor* x, const porta_tensor* out) {
  return run_op([&] { launch_sigmoid(stream, x, out); });
}

porta_status porta_ops_matmul(porta_stream stream, const porta_tensor* a, const porta_tensor* b,
                              const porta_tensor* c, float alpha, float beta, int trans_a, int trans_b) {
  return run_op([&] { launch_matmul(stream, a, b, c, alpha, beta, trans_a != 0, trans_b != 0); });
}

porta_status porta_ops_gemm(porta_stream stream, const porta_gemm_desc* desc) {
  return run_op([&] { launch_gemm(stream, desc); });
}

porta_status porta_ops_logreg_workspace_size(porta_device device, uint64_t m, uint64_t d, uint64_t* bytes) {
  return run_op([&] { logreg_workspace_size(device, m, d, bytes); });
}

porta_status porta_ops_logreg_step(porta_stream stream, const porta_tensor* x, const porta_tensor* y,
                                   const porta_tensor* w, const porta_tensor* b, float lr,
                                   const porta_tensor* loss, const porta_tensor* workspace) {
  return run_op([&] {
    launch_logreg(stream, x, nullptr, y, w, b, lr, loss, nullptr, workspace, "porta_ops_logreg_step");
  });
}

porta_status porta_ops_logreg_step_scaled(porta_stream stream, const porta_tensor* x,
                                          const porta_tensor* x_scale, const porta_tensor* y,
                                          const porta_tensor* w, const porta_tensor* b, float lr,
                                          const porta_tensor* loss, const porta_tensor* workspace) {
  return run_op([&] {
    launch_logreg(stream, x, x_scale, y, w, b, lr, loss, nullptr, workspace, "porta_ops_logreg_step_scaled");
  });
}

porta_status porta_ops_logreg_gradient(porta_stream stream, const porta_tensor* x,
                                       const porta_tensor* x_scale, const porta_tensor* y,
                                       const porta_tensor* w, const porta_tensor* b, const porta_tensor* sums,
                                       const porta_tensor* workspace) {
  return run_op([&] {
    launch_logreg(stream, x, x_scale, y, w, b, 0.0f, nullptr, sums, workspace, "porta_ops_logreg_gradient");
  });
}

porta_status porta_parallel_logreg_train(const porta_device* devices, uint32_t device_count,
                                         const porta_parallel_data* data,
                                         const porta_parallel_options* options, float* w, float* b,
                                         porta_parallel_device_report* reports) {
  return run_op([&] { porta::parallel::logreg_train(devices, device_count, data, options, w, b, reports); });
}

}  // extern "C"
