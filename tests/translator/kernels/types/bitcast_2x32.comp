// porta-conformance: --groups 1,1,1 --inputs auto --elements 8
// porta-requires: fp64 int64
// what: bitcasts between 64-bit scalars and pairs of 32-bit words (packDouble2x32, packUint2x32, packInt2x32 and their unpacks), of swizzles too
#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer In { uvec4 w[8]; };
layout(std430, binding = 1) writeonly buffer Out { double d[8]; uint64_t u[8]; int64_t s[8]; uvec4 back[8]; ivec2 back2[8]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uvec4 q = w[i];
  // The high word keeps the double normal: +-[1, 2).
  double x = packDouble2x32(uvec2(q.x, (q.y & 0x800FFFFFu) | 0x3FF00000u));
  d[i] = x * 2.0lf;
  u[i] = packUint2x32(q.zw) * 3ul;
  s[i] = packInt2x32(ivec2(q.wx)) >> 5;
  back[i] = uvec4(unpackDouble2x32(x * 4.0lf), unpackUint2x32(uint64_t(q.y) * 0x100000001ul + uint64_t(q.z)));
  back2[i] = unpackInt2x32(-int64_t(q.x) * 7l);
}
