#version 450
// out[i] = a[i] + b[i] for same-shape contiguous operands, four floats per
// load and store (add.comp is the scalar and the broadcasting path). The
// buffers are seen as vec4 arrays, so every offset is in vec4s: the host
// uses this kernel only when all three element offsets are multiples of 4,
// and only for the first 4*(n/4) elements; add.comp does the rest.
layout(local_size_x = 256, local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer InA { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer InB { vec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer Out { vec4 o[]; };

layout(push_constant) uniform Params {
  uint n4;  // vec4s
  uint a_offset4;
  uint b_offset4;
  uint o_offset4;
  uint stride;
} p;

// ONCE (constant 1) = 1: an item per vec4 and every offset 0, no loop: the
// CPU-type devices' form (kernels/mul/mul.comp says why); GPUs loop (0).
layout(constant_id = 1) const uint ONCE = 1;

void main() {
  if (ONCE != 0u) {
    const uint i = gl_GlobalInvocationID.x;
    if (i < p.n4) o[i] = a[i] + b[i];
  } else {  // an if/else, not an early return: the loop stays reachable under ONCE's default
    for (uint i = gl_GlobalInvocationID.x; i < p.n4; i += p.stride)
      o[p.o_offset4 + i] = a[p.a_offset4 + i] + b[p.b_offset4 + i];
  }
}
