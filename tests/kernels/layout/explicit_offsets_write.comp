// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: writes to members at explicit offsets leave the gap bytes between them unchanged
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) buffer Out {
  layout(offset = 8) float first;
  layout(offset = 24) vec2 second;
  layout(offset = 48) uint third;
  layout(offset = 64) float rest[64];
} dst;

void main() {
  uint i = gl_GlobalInvocationID.x;
  dst.rest[i] = x[i] * 3.0;
  if (i == 0u) {
    dst.first = x[1];
    dst.second = vec2(x[2], x[3]);
    dst.third = floatBitsToUint(x[4]);
  }
}
