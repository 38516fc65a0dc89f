// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: dot, cross, reflect, faceforward on vectors rounded to 1/8 (exact results whatever the evaluation order)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) readonly buffer B { vec4 b[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };
layout(binding = 3) writeonly buffer Out2 { vec4 z[]; };

vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 p = q8(a[i]), q = q8(b[i]);
  y[i] = vec4(cross(p.xyz, q.xyz), dot(p, q));
  z[i] = vec4(reflect(p.xyz, q.xyz), dot(faceforward(p.xy, q.xy, p.zw), vec2(1.0, 2.0)));
}
