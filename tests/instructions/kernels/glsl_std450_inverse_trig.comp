#version 450
// porta-conformance: --groups 1,1,1 --buffer random:21:256 --buffer zeros:1536 --tolerance 4096
// what: inverse trigonometric and hyperbolic functions (Vulkan allows 4096 ulp for atan2-based ones)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { float r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = float(a[i] >> 16) / 1024.0;
  float y = float(a[(i + 7u) % 64u] >> 20) / 64.0 + 0.25;
  float t = clamp(float(a[(i + 3u) % 64u] & 1023) / 1023.0, 0.0, 1.0);
  uint o = 6u * i;
  r[o + 0] = asin(t);
  r[o + 1] = acos(t);
  r[o + 2] = atan(x);
  r[o + 3] = atan(x, y);
  r[o + 4] = asinh(x) + acosh(1.0 + t);
  vec2 h = atanh(vec2(t * 0.5, -t * 0.25));
  r[o + 5] = h.x - h.y;
}
