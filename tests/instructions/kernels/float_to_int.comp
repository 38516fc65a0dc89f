#version 450
// porta-conformance: --groups 1,1,1 --buffer pattern:4f800000:64 --buffer zeros:256
// what: float to int and uint conversion: in range it truncates; out of range porta saturates and NaN gives 0 on its translated targets (SPIR-V leaves it undefined, so Vulkan drivers differ)
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) writeonly buffer Out { int r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = x[i];
  r[4 * i + 0] = int(v);
  r[4 * i + 1] = int(uint(v));
  ivec2 w = ivec2(vec2(v, -v));
  r[4 * i + 2] = w.x ^ w.y;
  r[4 * i + 3] = int(uvec2(vec2(v)).y);
}
