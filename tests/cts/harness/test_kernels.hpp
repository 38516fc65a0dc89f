// Test kernels of the plugin tests, GLSL written once and translated for
// each plugin's language (GlslKernel).
#pragma once

#include <cstdint>

namespace porta::test {

namespace kernels {
extern const char* const kIncrement;    // d[i] += add (after `iterations` rounds of busy work)
extern const char* const kSaxpy;        // o = a * x + y + bias; bindings 0, 2, 5; two spec constants
extern const char* const kMixedPush;    // y = a * x + y + bias with float, uint and int push constants
extern const char* const kReduce;       // per-group sums through shared memory and barriers
extern const char* const kMatmul;       // 16 x 16 tiles in shared memory, a vec2 push constant
extern const char* const kGrid3d;       // each work-item writes its ids (3-D groups and grid)
extern const char* const kAtomicSum;    // 32-bit integer atomics across groups
extern const char* const kFloatAtomic;  // a float atomic add per group
extern const char* const kMaxGroup;     // a work-group of any size (spec constant 0) through shared memory
}  // namespace kernels

struct IncrementPush {
  uint32_t n, add, iterations;
};

}  // namespace porta::test
