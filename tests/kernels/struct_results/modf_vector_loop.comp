// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: modf on vec2 in a loop (fractional digits of a value, base 8), the struct result consumed per iteration
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec2 x[]; };
layout(binding = 1) writeonly buffer Out { uvec2 digits[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 f = abs(x[i]) * 0.5;  // [0, 1]
  uvec2 packed = uvec2(0u);
  for (int k = 0; k < 8; ++k) {
    vec2 whole;
    f = modf(f * 8.0, whole);
    packed = packed * 8u + uvec2(whole);
  }
  digits[i] = packed;
}
