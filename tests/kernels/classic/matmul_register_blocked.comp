// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024
// what: register-blocked matrix multiply: each invocation computes a 2x2 block of C (32x32) with vec2 accumulators
#version 450
layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer C { float c[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint col = gl_GlobalInvocationID.x * 2u, row = gl_GlobalInvocationID.y * 2u;
  vec2 acc0 = vec2(0.0), acc1 = vec2(0.0);
  for (uint k = 0u; k < 32u; ++k) {
    vec2 bk = vec2(q8(b[k * 32u + col]), q8(b[k * 32u + col + 1u]));
    acc0 += q8(a[row * 32u + k]) * bk;
    acc1 += q8(a[(row + 1u) * 32u + k]) * bk;
  }
  c[row * 32u + col] = acc0.x;
  c[row * 32u + col + 1u] = acc0.y;
  c[(row + 1u) * 32u + col] = acc1.x;
  c[(row + 1u) * 32u + col + 1u] = acc1.y;
}
