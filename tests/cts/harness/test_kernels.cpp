// Every translator target's compile test checks these kernels too
// (tests/support/test_kernels.hpp reads the GLSL strings under tests/cts).
#include "harness/test_kernels.hpp"

namespace porta::test::kernels {

const char* const kIncrement = R"(#version 450
// d[i] += add, after `iterations` rounds of busy work (for timing tests).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint d[]; };
layout(push_constant) uniform Push {
  uint n;
  uint add;
  uint iterations;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.n) return;
  uint v = d[i];
  uint noise = v;
  // xorshift: no closed form for the compiler to replace the loop with.
  for (uint k = 0; k < p.iterations; ++k) {
    noise ^= noise << 13;
    noise ^= noise >> 17;
    noise ^= (noise << 5) + k;
  }
  // Never true for the values the tests use; keeps the loop from being optimised away.
  d[i] = v + p.add + (noise == 0xdeadbeefu ? 1u : 0u);
}
)";

const char* const kSaxpy = R"(#version 450
// out = a * x + y + bias: buffers at scattered bindings, push constants, and two
// specialization constants (the work-group size and the bias).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float bias = 0.0;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 2) readonly buffer Y { float y[]; };
layout(set = 0, binding = 5) writeonly buffer Out { float o[]; };
layout(push_constant) uniform Push {
  uint n;
  float a;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) o[i] = p.a * x[i] + y[i] + bias;
}
)";

const char* const kMixedPush = R"(#version 450
// y = a * x + y + bias: push constants of mixed types, so that a layout
// disagreement shows as a wrong answer.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform Push {
  float a;
  uint n;
  int bias;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) y[i] = p.a * x[i] + y[i] + float(p.bias);
}
)";

const char* const kReduce = R"(#version 450
// partial[g] = the sum of group g's 128 elements, by a tree in shared memory.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Partial { float partial[]; };
layout(push_constant) uniform Push { uint n; } p;
shared float tile[128];

void main() {
  uint l = gl_LocalInvocationID.x;
  uint i = gl_WorkGroupID.x * 128u + l;
  tile[l] = i < p.n ? x[i] : 0.0;
  barrier();
  for (uint k = 64u; k > 0u; k >>= 1u) {
    if (l < k) tile[l] += tile[l + k];
    barrier();
  }
  if (l == 0u) partial[gl_WorkGroupID.x] = tile[0];
}
)";

const char* const kMatmul = R"(#version 450
// C = alpha * A * B + beta * C (row-major, M x K times K x N) with 16 x 16
// tiles in shared memory: a two-dimensional grid of two-dimensional groups,
// and std430 push constants with a vec2 member at offset 16.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) buffer C { float c[]; };
layout(push_constant) uniform Push {
  uint m;
  uint n;
  uint k;
  vec2 alpha_beta;
} p;
shared float tile_a[16][16];
shared float tile_b[16][16];

void main() {
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint row = gl_WorkGroupID.y * 16u + ty;
  uint col = gl_WorkGroupID.x * 16u + tx;
  float acc = 0.0;
  for (uint t = 0u; t < (p.k + 15u) / 16u; ++t) {
    uint ka = t * 16u + tx;
    uint kb = t * 16u + ty;
    tile_a[ty][tx] = (row < p.m && ka < p.k) ? a[row * p.k + ka] : 0.0;
    tile_b[ty][tx] = (kb < p.k && col < p.n) ? b[kb * p.n + col] : 0.0;
    barrier();
    for (uint j = 0u; j < 16u; ++j) acc += tile_a[ty][j] * tile_b[j][tx];
    barrier();
  }
  if (row < p.m && col < p.n) c[row * p.n + col] = p.alpha_beta.x * acc + p.alpha_beta.y * c[row * p.n + col];
}
)";

const char* const kGrid3d = R"(#version 450
// Each work-item writes its global id, its index within its group and the
// grid's size at its own place: every item of a 3-D grid of 3-D groups runs once.
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };

void main() {
  uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
  uvec3 g = gl_GlobalInvocationID;
  uint i = 4u * ((g.z * size.y + g.y) * size.x + g.x);
  o[i] = g.x;
  o[i + 1u] = g.y;
  o[i + 2u] = g.z;
  o[i + 3u] = gl_LocalInvocationIndex | (gl_NumWorkGroups.x << 8) | (gl_NumWorkGroups.y << 16) |
              (gl_NumWorkGroups.z << 24);
}
)";

const char* const kAtomicSum = R"(#version 450
// total[0] += x[i] for every i < n, from every group at once.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { uint x[]; };
layout(set = 0, binding = 1) buffer Total { uint total[]; };
layout(push_constant) uniform Push { uint n; } p;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) atomicAdd(total[0], x[i]);
}
)";

const char* const kFloatAtomic = R"(#version 450
#extension GL_EXT_shader_atomic_float : require
// sum[0] += each group's sum: a reduction in shared memory, then one float
// atomic per group.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Sum { float sum[]; };
layout(push_constant) uniform Push { uint n; } p;
shared float partial[64];

void main() {
  uint l = gl_LocalInvocationID.x;
  uint i = gl_GlobalInvocationID.x;
  partial[l] = i < p.n ? x[i] : 0.0;
  barrier();
  for (uint k = 32u; k > 0u; k >>= 1u) {
    if (l < k) partial[l] += partial[l + k];
    barrier();
  }
  if (l == 0u) atomicAdd(sum[0], partial[0]);
}
)";

const char* const kMaxGroup = R"(#version 450
// Every item stores a value in shared memory and, after a barrier, reads the
// one its mirror image in the group stored: a group of any size (spec
// constant 0) runs as one group.
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
shared uint slots[gl_WorkGroupSize.x];

void main() {
  uint l = gl_LocalInvocationID.x;
  slots[l] = gl_WorkGroupID.x * 65536u + l;
  barrier();
  o[gl_GlobalInvocationID.x] = slots[gl_WorkGroupSize.x - 1u - l];
}
)";

}  // namespace porta::test::kernels
