// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: one block type instanced at two bindings (named instances) and read through both
#version 450
layout(local_size_x = 64) in;

struct Pair { int a; int b; };
layout(binding = 0) readonly buffer Pairs { Pair p[]; } first;
layout(binding = 1) readonly buffer Pairs2 { Pair p[]; } second;
layout(binding = 2) writeonly buffer Out { int y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = first.p[i].a * second.p[i].b - first.p[i].b + second.p[i].a;
}
