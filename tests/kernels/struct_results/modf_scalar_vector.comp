// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: modf on float and vec4 (integer and fraction parts, both with the sign of x), exact
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Whole { vec4 whole[]; };
layout(binding = 2) writeonly buffer Frac { vec4 frac[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = x[i] * 8.0;
  vec4 ip;
  frac[i] = modf(v, ip);
  float sip;
  float sf = modf(-v.x, sip);
  whole[i] = ip + vec4(sip, sf, 0.0, 0.0);
}
