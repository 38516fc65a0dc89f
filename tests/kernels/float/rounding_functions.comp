// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: floor, ceil, trunc, fract, roundEven, round (never on a tie), abs, sign on negative and positive values (exact)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { vec4 a[]; };
layout(binding = 2) writeonly buffer Out2 { vec4 b[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = x[i] * 4.0;  // [-8, 8]
  a[i] = vec4(floor(v), ceil(v), trunc(v), fract(v));
  // roundEven is defined on ties; round only sees integer + 0.25 (no tie).
  float tie = floor(v) + 0.5;
  b[i] = vec4(roundEven(tie), round(floor(v) + 0.25), abs(v), sign(v) + sign(-tie));
}
