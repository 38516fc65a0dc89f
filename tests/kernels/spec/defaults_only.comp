// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: specialization constants of every scalar type left at their defaults (no --spec)
#version 450
layout(local_size_x = 64) in;

layout(constant_id = 0) const int I = -7;
layout(constant_id = 1) const uint U = 0xF0000000u;
layout(constant_id = 2) const float F = 0.375;
layout(constant_id = 3) const bool B = true;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = vec4(float(I), float(U >> 24), x[i] * F * 8.0, B ? 1.0 : -1.0);
}
