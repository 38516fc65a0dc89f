// porta-conformance: --groups 2,2,2 --inputs auto --elements 512
// what: 3D 7-point stencil on an 8x8x8 grid read straight from the buffer, clamped at the faces
#version 450
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;

layout(binding = 0) readonly buffer In { float u[]; };
layout(binding = 1) writeonly buffer Out { float v[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

float at(ivec3 p) {
  p = clamp(p, ivec3(0), ivec3(7));
  return q8(u[(p.z * 8 + p.y) * 8 + p.x]);
}

void main() {
  ivec3 p = ivec3(gl_GlobalInvocationID);
  float s = at(p + ivec3(1, 0, 0)) + at(p - ivec3(1, 0, 0)) + at(p + ivec3(0, 1, 0)) + at(p - ivec3(0, 1, 0)) +
            at(p + ivec3(0, 0, 1)) + at(p - ivec3(0, 0, 1));
  v[(p.z * 8 + p.y) * 8 + p.x] = s * 0.125 + at(p) * 0.25;
}
