#version 450
layout(local_size_x_id = 0) in;
layout(binding = 0) readonly buffer In { float data[]; } src;
layout(binding = 1) writeonly buffer Out { float sums[]; } dst;
layout(push_constant) uniform P { uint n; } pc;
shared float partial[gl_WorkGroupSize.x];
void main() {
  uint l = gl_LocalInvocationID.x;
  uint i = gl_GlobalInvocationID.x;
  partial[l] = i < pc.n ? src.data[i] : 0.0;
  barrier();
  for (uint stride = gl_WorkGroupSize.x / 2; stride > 0; stride >>= 1) {
    if (l < stride) partial[l] += partial[l + stride];
    barrier();
  }
  if (l == 0) dst.sums[gl_WorkGroupID.x] = partial[0];
}
