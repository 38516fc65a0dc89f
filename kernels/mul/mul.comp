#version 450
// out[i] = a[i] * b[i], one float at a time: the path for views whose element
// offsets are not multiples of 4, and the tail after mul_vec4.
layout(local_size_x = 256, local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer InA { float a[]; };
layout(set = 0, binding = 1) readonly buffer InB { float b[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float o[]; };

layout(push_constant) uniform Params {
  uint n;
  uint a_offset;
  uint b_offset;
  uint o_offset;
  uint stride;
} p;

// ONCE (constant 1) = 1: the host launched an item per element (CPU-type
// devices) and every offset is 0, so an item takes element
// gl_GlobalInvocationID.x or none, with no loop and no offsets. porta's CPU
// backend runs a group's items as the lanes of a SIMD loop, which vectorises
// straight-line code but not a grid-stride loop (its trip count differs from
// item to item), and gathers where it cannot tell that item i + 1 reads the
// element after item i's (`offset + i` may wrap). The default is the CPU
// backend's built-in variant; GPUs launch fewer items, which loop (ONCE = 0).
layout(constant_id = 1) const uint ONCE = 1;

void main() {
  if (ONCE != 0u) {
    const uint i = gl_GlobalInvocationID.x;
    if (i < p.n) o[i] = a[i] * b[i];
  } else {
    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += p.stride) o[p.o_offset + i] = a[p.a_offset + i] * b[p.b_offset + i];
  }
}
