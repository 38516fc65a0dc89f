// porta-conformance: --groups 1,1,1 --inputs auto --elements 96 --tolerance-ulp 64
// what: mat4 * vec4, vec4 * mat4, inverse(mat3), determinant, outerProduct, transpose, matrixCompMult, mat * mat, matrix +, -, scalar * (inverse: 64 ulp)
#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) readonly buffer In { mat4 m; vec4 v[]; };
layout(std430, binding = 1) writeonly buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 a = m * v[i];
  vec4 b = v[i] * m;
  mat3 m3 = mat3(vec3(2.0, 0.5, float(i)), vec3(-1.0, 3.0, 0.25), vec3(0.5, 1.0, 4.0));
  mat3 inv = inverse(m3);
  mat2x3 op = outerProduct(v[i].xyz, v[i].zw);
  mat3x2 t = transpose(op);
  mat2 c = matrixCompMult(mat2(v[i].xy, v[i].zw), mat2(1.0, 2.0, 3.0, 4.0));
  mat4 mm = (m * m + m - m * 0.5) * 2.0;
  mat4 mi = m + mat4(8.0);  // diagonally dominant for inputs in [-1, 1]: well conditioned
  uint base = i * 24u;
  for (int k = 0; k < 4; ++k) { o[base + k] = a[k]; o[base + 4 + k] = b[k]; o[base + 8 + k] = mm[k][(k + 1) % 4]; }
  for (int k = 0; k < 3; ++k) o[base + 12 + k] = inv[k][(k + 2) % 3];
  o[base + 15] = determinant(m3);
  o[base + 16] = op[1][2];
  o[base + 17] = t[2][1];
  o[base + 18] = t[0][0];
  o[base + 19] = c[1][1];
  o[base + 20] = determinant(mi);
  o[base + 21] = inverse(mi)[3][0];
  o[base + 22] = (m3 * inv)[1][1];
  o[base + 23] = (-m)[2][3];
}
