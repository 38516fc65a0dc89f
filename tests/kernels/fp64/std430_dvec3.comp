// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// porta-requires: fp64
// what: std430 struct {double; dvec3; float}: dvec3 aligned to 32 bytes, the float in its last 8-byte slot (offsets 0, 32, 56; stride 64)
#version 450
layout(local_size_x = 64) in;

struct S { double d; dvec3 v; float f; };
layout(std430, binding = 0) readonly buffer In { S s[]; };
layout(std430, binding = 1) writeonly buffer Out { S o[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  S x = s[i];
  o[i] = S(x.v.z, x.v.yxz * 2.0lf + x.d, float(x.d) + x.f);
}
