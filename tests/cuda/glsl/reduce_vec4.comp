#version 450
// A work-group reduction of vec4 dot products: shared memory, barriers in a
// loop, push constants, a spec constant for the work-group size and one for a
// scale — what the CUDA target must get right.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float SCALE = 1.0;
layout(set = 0, binding = 0) readonly buffer In { vec4 v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float partial[]; };
layout(push_constant) uniform Push {
  uint n;
  float bias;
};
shared float tile[256];
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint l = gl_LocalInvocationID.x;
  tile[l] = i < n ? dot(v[i], vec4(1.0)) * SCALE + bias : 0.0;
  barrier();
  for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
    if (l < s) tile[l] += tile[l + s];
    barrier();
  }
  if (l == 0u) partial[gl_WorkGroupID.x] = tile[0];
}
