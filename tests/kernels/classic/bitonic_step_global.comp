// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --spec 0=16 --spec 1=4
// what: one global bitonic merge step (stage k, distance j from specialization constants) over 256 floats, as a host-driven sort dispatches it
#version 450
layout(local_size_x = 64) in;

layout(constant_id = 0) const uint K = 2u;
layout(constant_id = 1) const uint J = 1u;

layout(binding = 0) buffer Data { float keys[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint partner = i ^ J;
  if (partner <= i) return;
  bool ascending = (i & K) == 0u;
  float a = keys[i], b = keys[partner];
  if ((a > b) == ascending) {
    keys[i] = b;
    keys[partner] = a;
  }
}
