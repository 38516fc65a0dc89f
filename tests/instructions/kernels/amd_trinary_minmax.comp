#version 450
#extension GL_EXT_spirv_intrinsics : require
// porta-conformance: --groups 1,1,1 --buffer random:1:256
// what: an instruction of SPV_AMD_shader_trinary_minmax: the translated targets refuse it, naming it and its line
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { float r[]; };
spirv_instruction(set = "SPV_AMD_shader_trinary_minmax", id = 1) float fmin3(float a, float b, float c);
void main() {
  uint i = gl_GlobalInvocationID.x;
  r[i] = fmin3(r[i], 1.0, 2.0);
}
