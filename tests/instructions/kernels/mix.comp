#version 450
// porta-conformance: --groups 1,1,1 --buffer random:41:256 --buffer zeros:512 --tolerance 4
// what: mix(x, y, a) is x * (1 - a) + y * a as GLSL defines it (OpenCL's mix() is x + (y - x) * a: NaN for an infinite x)
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int q[]; };
layout(std430, binding = 1) writeonly buffer Out { float r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = i % 8u == 0u ? uintBitsToFloat(0x7f800000u) : float(q[i] >> 12) / 16.0;
  float y = float(q[(i + 1u) % 64u] >> 12) / 16.0;
  float a = float(i % 5u) * 0.25;
  r[2u * i] = mix(x, y, a);
  vec2 v = mix(vec2(x, y), vec2(y, -x), vec2(a, 0.5));
  r[2u * i + 1u] = v.x + v.y;
}
