// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: bool(int), bool(float), int(bool), float(bool), uint(bool) and bvec constructors from ivec/vec
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer F { vec2 f[]; };
layout(binding = 2) writeonly buffer Out { ivec4 y[]; };
layout(binding = 3) writeonly buffer OutF { vec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = a[i] & 3;
  bool b = bool(v);
  bvec2 bf = bvec2(floor(f[i]));
  bvec3 bi = bvec3(ivec3(v, v - 1, v - 2));
  y[i] = ivec4(int(b), ivec2(bf), int(uint(bi.x) + uint(bi.y) * 2u + uint(bi.z) * 4u));
  z[i] = vec4(float(b), vec2(bi.yz), float(bf.x != bf.y));
}
