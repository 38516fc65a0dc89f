// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: frexp on float and vec3 (mantissa in [0.5, 1) with x's sign, integer exponent), exact; zero gives (0, 0)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Mant { vec4 mant[]; };
layout(binding = 2) writeonly buffer Expo { ivec4 expo[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = x[i] * vec4(1.0, 1000.0, 0.001, 0.0);
  ivec3 e3;
  vec3 m3 = frexp(v.xyz, e3);
  int e1;
  float m1 = frexp(v.w + float(i), e1);
  mant[i] = vec4(m3, m1);
  expo[i] = ivec4(e3, e1);
}
