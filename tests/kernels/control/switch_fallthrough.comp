// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: switch with fall-through, negative case labels, a default in the middle and nested switches
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = (x[i] % 12) - 4;  // [-4, 7]
  int r = 0;
  switch (v) {
    case -4:
      r += 1;
    case -3:
      r += 10;
      break;
    case 0:
    default:
      r += 100;
    case 5:
      switch (v & 1) {
        case 0: r += 1000; break;
        case 1: r -= 1000; break;
      }
      break;
    case 6:
      r = -1;
  }
  y[i] = r * 16 + v;
}
