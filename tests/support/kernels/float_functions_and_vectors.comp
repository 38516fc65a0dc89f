#version 450
// Float functions whose edge cases targets get wrong (fract, mod with a
// negative divisor, sign, float-to-int conversions) and vector swizzles,
// sixteen results per item.
layout(local_size_x = 4) in;
layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) writeonly buffer O { vec4 o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 x = a[i];
  o[i * 4u + 0u] = vec4(fract(x.xy), mod(x.z, 3.0), mod(x.w, -3.0));
  o[i * 4u + 1u] = vec4(inversesqrt(abs(x.x) + 1.0), clamp(x.y, -1.0, 1.0), step(0.0, x.z), sign(x.w));
  o[i * 4u + 2u] = vec4(uintBitsToFloat(floatBitsToUint(x.x) ^ 0x80000000u), float(int(x.y)), float(uint(abs(x.z))), mix(x.x, x.y, 0.25));
  o[i * 4u + 3u] = vec4(x.wz, min(x.x, x.y), max(x.z, x.w));
}
