// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --tolerance-ulp 16
// what: length, distance, normalize and refract (square roots: inherited from inversesqrt; 16 ulp, outputs kept away from zero)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) readonly buffer B { vec4 b[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };
layout(binding = 3) writeonly buffer Out2 { vec4 z[]; };

vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 p = q8(a[i]) + vec4(3.0, 0.0, 0.0, 0.0);  // length >= 1
  vec4 q = q8(b[i]);
  y[i] = vec4(length(p), distance(p, q), length(p.xy) + 2.0, 2.0 + length(q.z));
  vec3 n = normalize(p.xyz);
  vec3 incident = normalize(vec3(q.x, q.y, -4.0));
  z[i] = vec4(n + 2.0, refract(incident, vec3(0.0, 0.0, 1.0), 0.75).z + 4.0);
}
