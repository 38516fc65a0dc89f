// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024
// what: 2D 3x3 convolution of a 32x32 image with a 3x3 kernel from a buffer (clamp-to-edge addressing)
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer Img { float img[]; };
layout(binding = 1) readonly buffer K { float k[9]; };
layout(binding = 2) writeonly buffer Out { float o[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  float acc = 0.0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      ivec2 q = clamp(p + ivec2(dx, dy), ivec2(0), ivec2(31));
      acc += q8(k[(dy + 1) * 3 + dx + 1]) * q8(img[q.y * 32 + q.x]);
    }
  o[p.y * 32 + p.x] = acc;
}
