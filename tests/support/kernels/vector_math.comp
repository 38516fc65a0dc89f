#version 450
// Vector arithmetic, swizzles read and written, vectors built from parts,
// dot, length, min, max, abs and clamp.
layout(local_size_x = 16) in;
layout(binding = 0) readonly buffer Points { vec4 p[]; };
layout(binding = 1) writeonly buffer Results { vec4 r[]; };
layout(binding = 2) writeonly buffer Reversed { vec4 y[]; };
layout(binding = 3) writeonly buffer Pairs { vec2 z[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 v = p[i];
  vec2 a = v.xy * 2.0 + v.zw;
  vec4 w = vec4(a, dot(v.xy, v.zw), length(v));
  y[i] = w.wzyx + vec4(1.0);
  z[i] = max(v.yx, vec2(0.5)) - abs(v.zw);
  vec4 q = v;
  q.zw = q.wz * 2.0;
  vec3 n = vec3(q.xy, 1.0);
  q.xyz += n.zxy * 0.5;
  float len = length(q.xy);
  vec2 d = max(q.xy - vec2(0.25), vec2(0.0));
  r[i] = vec4(len, dot(q.xy, q.zw), min(q.z, 1.5) + abs(d.x - d.y), clamp(q.w, -1.0, 1.0)) + q.wzyx * 0.5;
}
