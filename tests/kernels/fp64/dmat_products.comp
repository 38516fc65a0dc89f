// porta-conformance: --groups 1,1,1 --inputs auto --elements 32
// porta-requires: fp64
// what: dmat3 * dvec3, dmat2x3 products, transpose and determinant on doubles in 1/8 steps (exact in any summation order)
#version 450
layout(local_size_x = 32) in;

layout(std430, binding = 0) readonly buffer In { vec4 x[]; };
layout(std430, binding = 1) writeonly buffer Out { dvec4 y[]; };

// Inputs rounded to multiples of 1/8: the matrix products' sums are exact whatever
// order an implementation adds them in.
dvec4 q8(vec4 v) { return dvec4(floor(v * 8.0)) * 0.125lf; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  dvec4 p = q8(x[(3u * i) & 31u]), q = q8(x[(3u * i + 1u) & 31u]), r = q8(x[(3u * i + 2u) & 31u]);
  dmat3 m = dmat3(p.xyz, q.xyz, r.xyz);
  dmat2x3 n = dmat2x3(p.yzw, q.yzw);
  dvec3 v = m * r.wzy;
  dvec2 w = transpose(n) * p.xyz;
  y[i] = dvec4(v + dvec3(w, 0.0lf), determinant(m));
}
