// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: std140 uniform {vec3; float; vec3[2]; float}: the float after a vec3 shares its 16 bytes, vec3 arrays have stride 16
#version 450
layout(local_size_x = 64) in;

layout(std140, binding = 0) uniform U {
  vec3 dir;
  float len;
  vec3 pts[2];
  float tail;
} u;
layout(std430, binding = 1) readonly buffer In { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Out { float y[]; };

// Inputs rounded to multiples of 1/8: the products and sums below are exact, so a
// fused multiply-add and a separate multiply and add give the same bits.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec3 p = floor(x[i].xyz * 8.0) * 0.125;
  vec3 d = floor(u.dir * 8.0) * 0.125, e = floor(u.pts[i & 1u] * 8.0) * 0.125;
  y[i] = dot(p, d) * q8(u.len) + dot(e, p) + q8(u.tail) * q8(x[i].w);
}
