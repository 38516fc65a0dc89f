// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: 1D convolution with a 5-tap filter from a uniform block (std140 vec4-packed taps), zero padding at the ends
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) uniform Taps { vec4 taps0_3; float tap4; } f;
layout(binding = 1) readonly buffer In { float x[]; };
layout(binding = 2) writeonly buffer Out { float y[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  int i = int(gl_GlobalInvocationID.x);
  float w[5] = float[5](q8(f.taps0_3.x), q8(f.taps0_3.y), q8(f.taps0_3.z), q8(f.taps0_3.w), q8(f.tap4));
  float acc = 0.0;
  for (int k = 0; k < 5; ++k) {
    int j = i + k - 2;
    if (j >= 0 && j < 256) acc += w[k] * q8(x[j]);
  }
  y[i] = acc;
}
