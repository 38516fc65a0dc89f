// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: scalar layout struct {float; vec3; float}: the vec3 sits at offset 4 and the float at 16, stride 20
#version 450
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;

struct S { float a; vec3 b; float c; };
layout(scalar, binding = 0) readonly buffer In { S s[]; };
layout(scalar, binding = 1) writeonly buffer Out { S t[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  S v = s[i];
  t[i] = S(v.c, v.b * v.a, v.a - v.c);
}
