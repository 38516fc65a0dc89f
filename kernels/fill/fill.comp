#version 450
// out[i] = value over a contiguous float range. Grid-stride loop: any length
// fits in the device's group-count limit.
layout(local_size_x = 256, local_size_x_id = 0) in;

layout(set = 0, binding = 0) writeonly buffer Out { float o[]; };

layout(push_constant) uniform Params {
  uint n;       // elements
  uint offset;  // first element of the view
  uint stride;  // work-items in the whole dispatch
  float value;
} p;

void main() {
  for (uint i = gl_GlobalInvocationID.x; i < p.n; i += p.stride) o[p.offset + i] = p.value;
}
