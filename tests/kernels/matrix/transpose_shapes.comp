// porta-conformance: --groups 1,1,1 --inputs auto --elements 32
// what: transpose of mat4, mat2x3 and mat4x2 (OpTranspose) written back to buffers
#version 450
layout(local_size_x = 32) in;

struct T { mat4 a; mat2x3 b; mat4x2 c; };
struct U { mat4 at; mat3x2 bt; mat2x4 ct; };
layout(std430, binding = 0) readonly buffer In { T t[]; };
layout(std430, binding = 1) writeonly buffer Out { U u[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  u[i].at = transpose(t[i].a);
  u[i].bt = transpose(t[i].b);
  u[i].ct = transpose(t[i].c);
}
