#version 450
// One step of logistic regression, second half: adds the per-group partials
// of logreg_partial.comp in group order (the same order on every run), divides
// by m and applies the step: w -= lr * dw, b -= lr * db, loss = mean loss of
// the weights before this step.
layout(local_size_x = 64, local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer Partials { float partials[]; };
layout(set = 0, binding = 1) buffer VecW { float w[]; };
layout(set = 0, binding = 2) buffer Bias { float bias[]; };
layout(set = 0, binding = 3) writeonly buffer Loss { float loss[]; };

layout(push_constant) uniform Params {
  uint d;
  uint groups;  // slots in the partials buffer, d + 2 floats each
  uint w_offset;
  uint b_offset;
  uint loss_offset;
  uint partials_offset;
  float m;  // rows, as a float
  float lr;
} p;

void main() {
  const uint j = gl_GlobalInvocationID.x;
  const uint width = p.d + 2u;
  if (j >= width) return;
  float s = 0.0;
  for (uint g = 0u; g < p.groups; ++g) s += partials[p.partials_offset + g * width + j];
  const float mean = s / p.m;
  if (j < p.d)
    w[p.w_offset + j] -= p.lr * mean;
  else if (j == p.d)
    bias[p.b_offset] -= p.lr * mean;
  else
    loss[p.loss_offset] = mean;
}
