// porta-conformance: --groups 1,1,1 --inputs auto --elements 1024
// what: 2x2 box downsampling of a 32x32 image to 16x16 (sum of four times 0.25) and a max-pool of the same blocks
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer Img { float img[]; };
layout(binding = 1) writeonly buffer Avg { vec2 pooled[]; };

void main() {
  uvec2 p = gl_LocalInvocationID.xy;
  uint base = (p.y * 2u) * 32u + p.x * 2u;
  float a = img[base], b = img[base + 1u], c = img[base + 32u], d = img[base + 33u];
  pooled[p.y * 16u + p.x] = vec2(((a + b) + (c + d)) * 0.25, max(max(a, b), max(c, d)));
}
