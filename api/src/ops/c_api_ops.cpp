// C API of the ops: operand checks common to all ops, then the op's launcher.
#include <cmath>

#include "handle_registry.hpp"
#include "ops.hpp"

using namespace porta::ops;
using porta::core::guard;

extern "C" {

porta_status porta_ops_fill(porta_stream stream, const porta_tensor* out, float value) {
  porta::core::clear_last_error();
  return guard([&] {
    Call call = begin_call(stream, "porta_ops_fill");
    require_float32(call, {out}, {"out"});
    launch_fill(call, view(call, out, "out"), value);
  });
}

porta_status porta_ops_scale(porta_stream stream, const porta_tensor* x, float alpha, const porta_tensor* out) {
  porta::core::clear_last_error();
  return guard([&] {
    Call call = begin_call(stream, "porta_ops_scale");
    require_float32(call, {x, out}, {"x", "out"});
    launch_scale(call, view(call, x, "x"), alpha, view(call, out, "out"));
  });
}

porta_status porta_ops_mul(porta_stream stream, const porta_tensor* a, const porta_tensor* b,
                           const porta_tensor* out) {
  porta::core::clear_last_error();
  return guard([&] {
    Call call = begin_call(stream, "porta_ops_mul");
    require_float32(call, {a, b, out}, {"a", "b", "out"});
    launch_mul(call, view(call, a, "a"), view(call, b, "b"), view(call, out, "out"));
  });
}

porta_status porta_ops_sigmoid(porta_stream stream, const porta_tensor* x, const porta_tensor* out) {
  porta::core::clear_last_error();
  return guard([&] {
    Call call = begin_call(stream, "porta_ops_sigmoid");
    require_float32(call, {x, out}, {"x", "out"});
    launch_sigmoid(call, view(call, x, "x"), view(call, out, "out"));
  });
}

porta_status porta_ops_matmul(porta_stream stream, const porta_tensor* a, const porta_tensor* b,
                              const porta_tensor* c, float alpha, float beta, int trans_a, int trans_b) {
  porta::core::clear_last_error();
  return guard([&] {
    Call call = begin_call(stream, "porta_ops_matmul");
    require_float32(call, {a, b, c}, {"A", "B", "C"});
    launch_matmul(call, view(call, a, "A"), view(call, b, "B"), view(call, c, "C"), alpha, beta, trans_a != 0,
                  trans_b != 0);
  });
}

porta_status porta_ops_logreg_workspace_size(porta_device device, uint64_t m, uint64_t d, uint64_t* bytes) {
  porta::core::clear_last_error();
  return guard([&] {
    porta::core::check_handle(device, "device", "porta_ops_logreg_workspace_size");
    Call call;
    call.device = device->state;
    call.op = "porta_ops_logreg_workspace_size";
    if (!bytes) call.fail(PORTA_ERROR_INVALID_ARGUMENT, "bytes is null");
    *bytes = plan_logreg(call, m, d).workspace_floats * sizeof(float);
  });
}

porta_status porta_ops_logreg_step(porta_stream stream, const porta_tensor* x, const porta_tensor* y,
                                   const porta_tensor* w, const porta_tensor* b, float lr, const porta_tensor* loss,
                                   const porta_tensor* workspace) {
  porta::core::clear_last_error();
  return guard([&] {
    Call call = begin_call(stream, "porta_ops_logreg_step");
    if (!std::isfinite(lr))
      call.fail(PORTA_ERROR_INVALID_ARGUMENT, "learning rate lr = %g is not finite", static_cast<double>(lr));
    require_float32(call, {x, y, w, b, loss, workspace}, {"X", "y", "w", "b", "loss", "workspace"});
    View vx = view(call, x, "X"), vy = view(call, y, "y"), vw = view(call, w, "w"), vb = view(call, b, "b"),
         vloss = view(call, loss, "loss");
    if (workspace) {
      View vws = view(call, workspace, "workspace");
      launch_logreg_step(call, vx, vy, vw, vb, lr, vloss, &vws);
    } else {
      launch_logreg_step(call, vx, vy, vw, vb, lr, vloss, nullptr);
    }
  });
}

}  // extern "C"
