// GLSL kernels of the kernel ABI (translator/README.md, "Buffer parameters"),
// run by the CTS (tests/cts/abi_test.cpp) on every plugin and by the API tests
// (tests/api/abi_test.cpp) on every backend.
#pragma once

namespace porta::test {

// ---- the kernel ABI (translator/README.md, "Buffer parameters") ----
// The CTS (tests/cts/abi_test.cpp) runs these through every plugin, the API
// tests (tests/api/abi_test.cpp) through libporta on every backend.
namespace abi_kernels {

// .length() of runtime arrays after a fixed member, of a vec4 array in a
// buffer whose size is not a multiple of 16, and of the array written.
// lengths = {header.values.length(), result.lengths.length(), vec4s.v.length(), header.tag}.
inline constexpr const char* kLength = R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) readonly buffer Header { uint tag; float values[]; } header;
layout(binding = 1) buffer Lengths { uint lengths[]; } result;
layout(binding = 2) readonly buffer Vec4s { vec4 v[]; } vec4s;
void main() {
  result.lengths[0] = uint(header.values.length());
  result.lengths[1] = uint(result.lengths.length());
  result.lengths[2] = uint(vec4s.v.length());
  result.lengths[3] = header.tag;
}
)";

// Two blocks at one binding, one parameter: the words of the buffer's first
// n elements read as uint and as float; values[n + i] = values[i] + float(bits[i] >> 16).
inline constexpr const char* kAliasedViews = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Bits { uint bits[]; } as_bits;
layout(binding = 0) buffer Floats { float values[]; } as_floats;
layout(push_constant) uniform Params { uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.n) return;
  as_floats.values[p.n + i] = as_floats.values[i] + float(as_bits.bits[i] >> 16u);
}
)";

// A std140 uniform block (a vec4 and scalars) before two storage buffers:
// y[i] = x[i] * scale[i % 4] + bias + float(shift) for i < n. The block's
// bytes: scale at 0, bias at 16, n at 20, shift at 24 (28 bytes).
inline constexpr const char* kUniform = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std140) uniform Params { vec4 scale; float bias; uint n; int shift; } params;
layout(set = 0, binding = 1) readonly buffer In { float x[]; } in_data;
layout(set = 0, binding = 2) writeonly buffer Out { float y[]; } out_data;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.n) return;
  out_data.y[i] = in_data.x[i] * params.scale[i % 4u] + params.bias + float(params.shift);
}
)";

// Buffers at sets 1 and 2 (set 0 empty): parameters a, b, c; c[i] = 3 * a[i] - b[i].
inline constexpr const char* kSets = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 2, binding = 1) writeonly buffer C { float c[]; };
layout(set = 2, binding = 0) readonly buffer B { float b[]; };
layout(set = 1, binding = 0) readonly buffer A { float a[]; };
layout(push_constant) uniform Params { uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.n) return;
  c[i] = 3.0 * a[i] - b[i];
}
)";

// An array of three buffers (parameters 0-2) and the output (3):
// y[i] = x0[i] + 2 x1[i] + 4 x2[i] for i < n, then y[n + k] = ins[k].x.length().
inline constexpr const char* kArrayOfBuffers = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer In { float x[]; } ins[3];
layout(binding = 1) writeonly buffer Out { float y[]; } out_data;
layout(push_constant) uniform Params { uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i == 0u) {
    out_data.y[p.n] = float(ins[0].x.length());
    out_data.y[p.n + 1u] = float(ins[1].x.length());
    out_data.y[p.n + 2u] = float(ins[2].x.length());
  }
  if (i >= p.n) return;
  out_data.y[i] = ins[0].x[i] + 2.0 * ins[1].x[i] + 4.0 * ins[2].x[i];
}
)";

// No buffers and no push constants: arithmetic through shared memory and a
// barrier, nothing written outside the work-group. It must run.
inline constexpr const char* kNoBuffers = R"(#version 450
layout(local_size_x = 64) in;
shared float scratch[64];
void main() {
  scratch[gl_LocalInvocationIndex] = float(gl_GlobalInvocationID.x) * 0.5;
  barrier();
  float v = scratch[63u - gl_LocalInvocationIndex] + 1.0;
  barrier();
  scratch[gl_LocalInvocationIndex] = v;
}
)";

}  // namespace abi_kernels

}  // namespace porta::test
