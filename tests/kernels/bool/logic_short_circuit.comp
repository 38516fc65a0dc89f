// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: &&, || and ^^ with short-circuit evaluation: the right operand's side effect (a buffer write) happens only when evaluated
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) buffer Touched { int touched[]; };
layout(binding = 2) writeonly buffer Out { int y[]; };

bool mark(uint i, bool result) {
  touched[i] = touched[i] + 1;
  return result;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = a[i];
  bool p = v > 31, q = (v & 1) == 0;
  bool r1 = p && mark(i, q);
  bool r2 = p || mark(i, !q);
  bool r3 = p ^^ q;
  y[i] = int(r1) + 2 * int(r2) + 4 * int(r3) + 8 * int(!p);
}
