// porta-conformance: --groups 2,2,1 --inputs auto --elements 1024 --tolerance-ulp 4
// what: Sobel edge filter on a 32x32 float image in a buffer: exact gradients gx, gy (clamp-to-edge) and the magnitude (sqrt: 4 ulp)
#version 450
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) readonly buffer Img { float img[]; };
layout(binding = 1) writeonly buffer Grad { vec2 grad[]; };
layout(binding = 2) writeonly buffer Mag { float mag[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

float at(ivec2 q) {
  q = clamp(q, ivec2(0), ivec2(31));
  return q8(img[q.y * 32 + q.x]);
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  float tl = at(p + ivec2(-1, -1)), t = at(p + ivec2(0, -1)), tr = at(p + ivec2(1, -1));
  float l = at(p + ivec2(-1, 0)), r = at(p + ivec2(1, 0));
  float bl = at(p + ivec2(-1, 1)), b = at(p + ivec2(0, 1)), br = at(p + ivec2(1, 1));
  float gx = (tr + 2.0 * r + br) - (tl + 2.0 * l + bl);
  float gy = (bl + 2.0 * b + br) - (tl + 2.0 * t + tr);
  uint i = uint(p.y * 32 + p.x);
  grad[i] = vec2(gx, gy);
  mag[i] = sqrt(gx * gx + gy * gy + 1.0);  // >= 1
}
