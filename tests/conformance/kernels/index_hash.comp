#version 450
// out[i] = a hash of i and in[i] for i < n: integer arithmetic, compared bit for bit.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } src;
layout(set = 0, binding = 1) buffer Out { uint v[]; } dst;
layout(push_constant) uniform Push { uint n; uint salt; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.n) return;
  uint h = (i ^ p.salt) * 0x9e3779b1u + src.v[i];
  h ^= h >> 15;
  h *= 0x85ebca6bu;
  dst.v[i] = h ^ (h >> 13);
}
