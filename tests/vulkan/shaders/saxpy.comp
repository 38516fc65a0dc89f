#version 450
// out = a * x + y + bias: buffers at scattered bindings, push constants, and two
// specialization constants (the work-group size and the bias).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float bias = 0.0;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) readonly buffer Y { float y[]; };
layout(set = 0, binding = 5) writeonly buffer Out { float o[]; };
layout(push_constant) uniform Push {
  uint n;
  float a;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) o[i] = p.a * x[i] + y[i] + bias;
}
