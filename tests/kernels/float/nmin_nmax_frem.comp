// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: GLSL.std.450 NMin, NMax, NClamp and OpFRem (C fmod: the sign of the dividend, unlike mod), emitted through GL_EXT_spirv_intrinsics, on exact values
#version 450
#extension GL_EXT_spirv_intrinsics : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { vec4 a[]; };
layout(binding = 1) readonly buffer B { vec4 b[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };
layout(binding = 3) writeonly buffer Rem { vec4 r[]; };

spirv_instruction(set = "GLSL.std.450", id = 79) vec4 nmin(vec4 x, vec4 y);
spirv_instruction(set = "GLSL.std.450", id = 80) vec4 nmax(vec4 x, vec4 y);
spirv_instruction(set = "GLSL.std.450", id = 81) vec4 nclamp(vec4 x, vec4 lo, vec4 hi);
spirv_instruction(id = 140) vec4 frem(vec4 x, vec4 y);  // OpFRem
spirv_instruction(id = 141) vec4 fmod_spirv(vec4 x, vec4 y);  // OpFMod

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 p = floor(a[i] * 64.0) * 0.125, q = b[i];  // p in [-16, 16] in 1/8 steps
  y[i] = nmin(p, q) + nmax(p, q) * 2.0 + nclamp(p, vec4(-1.0), vec4(1.5)) * 4.0;
  // Power-of-two divisors of both signs: the remainders are exact.
  vec4 d = vec4(2.0, -4.0, 0.5, -0.25);
  r[i] = frem(p, d) + fmod_spirv(p, d) * 16.0;
}
