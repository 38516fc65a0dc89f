#version 450
// porta-conformance: --groups 1,1,1 --buffer random:31:256 --buffer zeros:3072
// what: packUnorm/Snorm 4x8 and 2x16, packHalf2x16 and their unpack functions, on values away from rounding ties
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint a[]; };
layout(std430, binding = 1) writeonly buffer Out { uint r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint p = a[i];
  // Inputs a quarter step away from any tie: (k + 0.25) / 255 and so on.
  vec4 v4 = (vec4(uvec4(p, p >> 8, p >> 16, p >> 24) & 0xffu) + 0.25) / 255.0;
  vec4 s4 = (vec4(uvec4(p, p >> 8, p >> 16, p >> 24) & 0xffu) - 127.75) / 127.0;
  vec2 v2 = (vec2(uvec2(p, p >> 16) & 0xffffu) + 0.25) / 65535.0;
  vec2 s2 = (vec2(uvec2(p, p >> 16) & 0xffffu) - 32767.75) / 32767.0;
  uint o = 12u * i;
  r[o + 0] = packUnorm4x8(v4);
  r[o + 1] = packSnorm4x8(s4);
  r[o + 2] = packUnorm2x16(v2);
  r[o + 3] = packSnorm2x16(s2);
  r[o + 4] = packHalf2x16(vec2(float(p & 0xfffu) / 64.0, -float(p >> 20) / 8.0));
  vec2 h = unpackHalf2x16(p & 0x7bff7bffu);  // finite halves
  r[o + 5] = floatBitsToUint(h.x);
  r[o + 6] = floatBitsToUint(h.y);
  // Unpacking divides (2.5 ulp in Vulkan and OpenCL): compared after scaling back and rounding.
  uvec4 u4 = uvec4(round(unpackUnorm4x8(p) * 255.0));
  ivec4 n4 = ivec4(round(unpackSnorm4x8(p) * 127.0));
  r[o + 7] = u4.x | (u4.y << 8) | (u4.z << 16) | (u4.w << 24);
  r[o + 8] = uint(n4.x + n4.y * 3 + n4.z * 5 + n4.w * 7);
  uvec2 u2 = uvec2(round(unpackUnorm2x16(p) * 65535.0));
  ivec2 n2 = ivec2(round(unpackSnorm2x16(p) * 32767.0));
  r[o + 9] = u2.x | (u2.y << 16);
  r[o + 10] = uint(n2.x * 3 + n2.y);
  r[o + 11] = packUnorm4x8(unpackUnorm4x8(p));
}
