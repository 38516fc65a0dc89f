#version 450
#extension GL_EXT_spirv_intrinsics : require
// porta-conformance: --groups 1,1,1 --buffer random:1:256
// what: OpExpectKHR is its value and OpAssumeTrueKHR nothing (SPV_KHR_expect_assume)
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { int r[]; };
spirv_instruction(extensions = ["SPV_KHR_expect_assume"], capabilities = [5629], id = 5631) int expect(int value, int expected);
spirv_instruction(extensions = ["SPV_KHR_expect_assume"], capabilities = [5629], id = 5630) void assume(bool condition);
void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = r[i];
  assume(v >= -1000000);
  r[i] = expect(v, 0) * 2 + 1;
}
