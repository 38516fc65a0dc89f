#version 450
// out[i] = 1 / (1 + exp(-x[i])), finite over the whole float range: exp is
// only ever taken of a value <= 0, so it cannot overflow. -inf gives 0, +inf
// gives 1, NaN stays NaN (the x >= 0 test is false for NaN and exp(NaN) is NaN).
layout(local_size_x = 256, local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float o[]; };

layout(push_constant) uniform Params {
  uint n;
  uint x_offset;
  uint o_offset;
  uint stride;
} p;

float sigmoid(float v) {
  if (v >= 0.0) return 1.0 / (1.0 + exp(-v));
  float e = exp(v);
  return e / (1.0 + e);
}

void main() {
  for (uint i = gl_GlobalInvocationID.x; i < p.n; i += p.stride) o[p.o_offset + i] = sigmoid(x[p.x_offset + i]);
}
