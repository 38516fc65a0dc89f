// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: GLSL.std.450 ModfStruct and Frexp (pointer form), the forms glslang does not pick, emitted through GL_EXT_spirv_intrinsics
#version 450
#extension GL_EXT_spirv_intrinsics : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { vec2 x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };
layout(binding = 2) writeonly buffer OutE { ivec2 e[]; };

struct ModfResult { float fraction; float whole; };
struct ModfResult2 { vec2 fraction; vec2 whole; };
spirv_instruction(set = "GLSL.std.450", id = 36) ModfResult modfStruct(float x);   // ModfStruct
spirv_instruction(set = "GLSL.std.450", id = 36) ModfResult2 modfStruct(vec2 x);  // ModfStruct
spirv_instruction(set = "GLSL.std.450", id = 51) float frexpPointer(float x, spirv_by_reference int e);  // Frexp

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 v = x[i] * 5.0;
  ModfResult s = modfStruct(v.x);
  ModfResult2 t = modfStruct(-v);
  int ex;
  float m = frexpPointer(v.y, ex);
  y[i] = vec4(s.fraction + s.whole * 2.0, t.fraction.y, t.whole.x, m);
  e[i] = ivec2(ex, int(t.whole.y));
}
