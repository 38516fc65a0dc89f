// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: ldexp(frexp(x)) rebuilds x bit for bit; modf parts sum back to x (both exact)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { uvec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = x[i] * 37.0;
  int e;
  float m = frexp(v, e);
  float ip;
  float f = modf(v, ip);
  y[i] = uvec4(floatBitsToUint(ldexp(m, e)) ^ floatBitsToUint(v), floatBitsToUint(ip + f) ^ floatBitsToUint(v),
               uint(e + 128), floatBitsToUint(m));
}
