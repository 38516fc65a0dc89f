// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: isnan and isinf on bit patterns of infinities, NaNs and ordinary numbers (results as integers)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { uvec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint kind = i & 3u;
  uint bits = kind == 0u ? 0x7F800000u : kind == 1u ? 0xFF800000u : kind == 2u ? 0x7FC00001u : floatBitsToUint(x[i]);
  float v = uintBitsToFloat(bits);
  y[i] = uvec4(isnan(v), isinf(v), isinf(x[i]) || isnan(x[i]), bits >> 23);
}
