#version 450
// A shared-memory tree reduction with a barrier inside a loop: the fiber path.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float partial[]; };
layout(push_constant) uniform Push { uint n; };
shared float tile[128];
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint l = gl_LocalInvocationID.x;
  tile[l] = i < n ? x[i] : 0.0;
  barrier();
  for (uint s = 64; s > 0; s >>= 1) {
    if (l < s) tile[l] += tile[l + s];
    barrier();
  }
  if (l == 0) partial[gl_WorkGroupID.x] = tile[0];
}
