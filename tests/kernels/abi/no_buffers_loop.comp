// porta-conformance: --groups 1,1,1
// what: a kernel with no buffers whose work is a loop with private arrays; nothing observable, it must run
#version 450
layout(local_size_x = 32) in;

void main() {
  float acc[8];
  for (int k = 0; k < 8; ++k) acc[k] = float(k) * float(gl_LocalInvocationID.x);
  float s = 0.0;
  for (int k = 0; k < 8; ++k) s += acc[k];
  if (s < 0.0) return;
}
