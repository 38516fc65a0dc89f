// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 8
// what: layer normalisation of 64-wide rows: mean and variance by shared tree sums (exact on 1/8 steps), inversesqrt (2 ulp), offset and gain
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) readonly buffer Params { vec2 gain_bias[64]; };
layout(binding = 2) writeonly buffer Out { float y[]; };

shared float red[64];

float tree_sum(uint l, float v) {
  red[l] = v;
  barrier();
  for (uint s = 32u; s > 0u; s >>= 1) {
    if (l < s) red[l] += red[l + s];
    barrier();
  }
  float r = red[0];
  barrier();
  return r;
}

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  float v = floor(x[i] * 8.0) * 0.125;           // exact sums below
  float mean = tree_sum(l, v) * (1.0 / 64.0);
  float d = v - mean;
  float variance = tree_sum(l, d * d) * (1.0 / 64.0);
  float normed = d * inversesqrt(variance + 0.25);
  vec2 gb = floor(gain_bias[l] * 8.0) * 0.125;
  // |normed| < 8: the offset keeps every output away from zero (ulp comparisons stay
  // meaningful) and leaves one product, with no add after it to fuse with.
  y[i] = (normed + 16.0) * (gb.x + 3.0);
}
