// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: ldexp with positive and negative exponents (exact scaling by powers of two, no overflow or denormals)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) readonly buffer E { ivec4 e[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  ivec4 k = e[i] - 32;  // [-32, 31]
  y[i] = ldexp(x[i], k) + vec4(ldexp(1.5, -k.x), 0.0, 0.0, ldexp(-3.0, k.w & 7));
}
