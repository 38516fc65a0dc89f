// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: every non-square matrix shape in registers and shared memory: products of mat2x3/mat3x2/mat2x4/mat4x2/mat3x4/mat4x3, vector * matrix, transpose, ==, a matrix function argument and result
#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) readonly buffer In { vec4 v[]; };
layout(std430, binding = 1) writeonly buffer Out { float o[]; };
shared mat4x3 shared_m[4];
mat3x2 twice(mat3x2 m) { return m * 2.0; }
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 a = v[2u * i], b = v[2u * i + 1u];
  mat2x3 m23 = mat2x3(a.xyz, b.xyz);
  mat3x2 m32 = transpose(m23);
  mat2x4 m24 = mat2x4(a, b);
  mat4x2 m42 = transpose(m24);
  mat3x4 m34 = mat3x4(a, b, a.wzyx);
  shared_m[i] = transpose(m34);
  barrier();
  mat4x3 m43 = shared_m[(i + 1u) % 4u];
  mat2 p22 = m32 * m23;          // 2x2
  mat3 p33 = m23 * m32;          // 3x3
  mat4 p44 = m24 * m42;          // 4x4
  mat3x2 p32 = twice(m42 * m34); // (4x2)(3x4) = 3x2
  vec3 r3 = b.xy * m32;          // vec2 * mat3x2: one dot product per column
  vec2 r2 = a.xyz * m23;
  vec3 r4 = m43 * a;
  uint base = i * 16u;
  o[base + 0] = p22[1][0];
  o[base + 1] = p33[2][1];
  o[base + 2] = p44[3][2];
  o[base + 3] = p32[2][1];
  o[base + 4] = r2.y;
  o[base + 5] = r4.z;
  o[base + 6] = float(m32 == transpose(m23));
  o[base + 7] = float(m24 != mat2x4(a, a));
  o[base + 8] = m43[3][2];
  o[base + 9] = determinant(p33 + mat3(1.0));
  o[base + 10] = r3.z;
  for (int k = 11; k < 16; ++k) o[base + k] = 0.0;
}
