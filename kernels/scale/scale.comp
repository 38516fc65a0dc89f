#version 450
// out[i] = alpha * x[i] over contiguous float ranges (out may be x itself).
layout(local_size_x = 256, local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float o[]; };

layout(push_constant) uniform Params {
  uint n;
  uint x_offset;
  uint o_offset;
  uint stride;
  float alpha;
} p;

void main() {
  for (uint i = gl_GlobalInvocationID.x; i < p.n; i += p.stride) o[p.o_offset + i] = p.alpha * x[p.x_offset + i];
}
