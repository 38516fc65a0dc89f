// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --spec 0=2 --spec 1=9
// what: specialization constants as switch selector and loop step (control flow folded differently per value)
#version 450
layout(local_size_x = 64) in;

layout(constant_id = 0) const int MODE = 0;
layout(constant_id = 1) const int STEP = 1;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { int y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = x[i];
  int r;
  switch (MODE) {
    case 0: r = v; break;
    case 1: r = v * v; break;
    case 2: r = -v * 3; break;
    default: r = 0; break;
  }
  for (int k = 0; k < 64; k += STEP) r += k ^ v;
  y[i] = r;
}
