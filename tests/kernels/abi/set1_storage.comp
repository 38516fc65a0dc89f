// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: storage buffers at descriptor set 1 (not 0) are ordinary kernel parameters
#version 450
layout(local_size_x = 64) in;

layout(set = 1, binding = 0) readonly buffer In { float x[]; };
layout(set = 1, binding = 1) writeonly buffer Out { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = x[i] * 2.0 + 1.0;
}
