// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: histogram of floats into 16 equal-width bins over [-2, 2) (bin = floor((x + 2) * 4), clamped), global atomics
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) buffer Bins { uint bins[16]; };

void main() {
  float v = x[gl_GlobalInvocationID.x];
  int b = clamp(int(floor((v + 2.0) * 4.0)), 0, 15);
  atomicAdd(bins[b], 1u);
}
