// porta-conformance: --groups 1,1,1 --inputs auto --elements 32
// what: std430 mat2 (column stride 8), mat2x3 (stride 16), mat3x2 (stride 8) in one struct; read and rewritten
#version 450
layout(local_size_x = 32) in;

struct S { mat2 a; mat2x3 b; mat3x2 c; float tail; };
layout(std430, binding = 0) buffer Data { S s[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  S v = s[i];
  s[i].a = mat2(v.c[0], v.c[2]);
  s[i].b = mat2x3(v.b[1], v.b[0]);
  s[i].c = mat3x2(v.a[1], v.a[0], v.b[0].xz);
  s[i].tail = v.tail + v.a[1][1];
}
