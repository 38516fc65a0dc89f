#version 450
// out[i] = a[..] + b[..] for the elements of a contiguous out, with NumPy
// broadcasting: a and b are strided views whose broadcast dimensions have
// stride 0. BROADCAST 0 is the same-shape contiguous path (one index for
// all three); BROADCAST 1 splits i into four indices (unrolled: Mesa's
// llvmpipe counts every loop iteration against one budget per work-item).
layout(local_size_x = 256, local_size_x_id = 0) in;
layout(constant_id = 1) const bool BROADCAST = false;

layout(set = 0, binding = 0) readonly buffer InA { float a[]; };
layout(set = 0, binding = 1) readonly buffer InB { float b[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float o[]; };

layout(push_constant) uniform Params {
  uvec4 shape;      // out's shape, padded in front with 1s to rank 4
  uvec4 a_strides;  // in elements; 0 where a is broadcast
  uvec4 b_strides;
  uint n;
  uint a_offset;
  uint b_offset;
  uint o_offset;
  uint stride;  // of the grid
} p;

void main() {
  for (uint i = gl_GlobalInvocationID.x; i < p.n; i += p.stride) {
    uint ai = p.a_offset + i, bi = p.b_offset + i;
    if (BROADCAST) {
      uint i3 = i % p.shape.w, r = i / p.shape.w;
      uint i2 = r % p.shape.z;
      r /= p.shape.z;
      uint i1 = r % p.shape.y, i0 = r / p.shape.y;
      uvec4 index = uvec4(i0, i1, i2, i3);
      ai = p.a_offset + index.x * p.a_strides.x + index.y * p.a_strides.y + index.z * p.a_strides.z +
           index.w * p.a_strides.w;
      bi = p.b_offset + index.x * p.b_strides.x + index.y * p.b_strides.y + index.z * p.b_strides.z +
           index.w * p.b_strides.w;
    }
    o[p.o_offset + i] = a[ai] + b[bi];
  }
}
