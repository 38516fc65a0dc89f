// GLSL kernels that the tests of more than one translator target run
// (tests/translator, tests/translator_opencl), kept here once.
// all_test_kernels() (test_kernels.hpp) reads this file's GLSL strings too.
#pragma once

namespace porta::test {

// y = alpha * x + y over n elements, buffers at bindings 1, 4 and 7, n and
// alpha as push constants; items past n return early.
inline constexpr const char* kSaxpy = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 1) readonly buffer XValues { float x[]; } xs;
layout(set = 0, binding = 4) readonly buffer YValues { float y[]; };
layout(set = 0, binding = 7) writeonly buffer Result { float data[]; } result;
layout(push_constant) uniform Params { uint n; float alpha; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= p.n) return;
  result.data[i] = p.alpha * xs.x[i] + y[i];
}
)";

// Three constants called `group`, in two functions and main, each computed
// from spec constants (work-group size x, id 0; SCALE, id 1). With x = 4 and
// SCALE = 5 every element becomes 8 + 20 * 100 + 9 * 10000.
inline constexpr const char* kConstantsInTwoFunctions = R"(#version 450
layout(local_size_x = 8, local_size_x_id = 0) in;
layout(constant_id = 1) const uint SCALE = 3;
layout(binding = 0) buffer Data { uint v[]; };
uint first() { const uint group = gl_WorkGroupSize.x * 2u; return group; }
uint second() { const uint group = gl_WorkGroupSize.x * SCALE; return group; }
void main() {
  const uint group = gl_WorkGroupSize.x + SCALE;
  v[gl_GlobalInvocationID.x] = first() + second() * 100u + group * 10000u;
}
)";

}  // namespace porta::test
