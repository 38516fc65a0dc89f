// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 24
// what: numerically stable softmax of 64-wide rows (one work-group per row): shared max, exp, ordered sum, divide (exp on [-4, 0]: 11 ulp, division 2.5 ulp: 24 ulp)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };

shared float red[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  float v = x[i];
  red[l] = v;
  barrier();
  for (uint s = 32u; s > 0u; s >>= 1) {
    if (l < s) red[l] = max(red[l], red[l + s]);
    barrier();
  }
  float m = red[0];
  barrier();
  float e = exp(v - m);  // in (e^-4, 1]
  red[l] = e;
  barrier();
  // Every invocation sums the 64 terms in the same order: one rounding sequence.
  float sum = 0.0;
  for (uint k = 0u; k < 64u; ++k) sum += red[k];
  y[i] = e / sum;
}
