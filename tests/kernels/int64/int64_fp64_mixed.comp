// porta-conformance: --groups 1,1,1 --inputs auto --elements 8
// porta-requires: fp64 int64
// what: int64, uint64 and double arithmetic in registers and buffers (wrap-around, shifts, conversions, a dvec2 and a dmat2)
#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer In { int64_t a[8]; uint64_t b[8]; double d[8]; };
layout(std430, binding = 1) buffer Out { int64_t sa[8]; uint64_t ub[8]; double dd[8]; dvec2 dv[8]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  sa[i] = a[i] * 3000000000l - (a[i] >> 3) + int64_t(i);
  ub[i] = (b[i] << 40) + b[i] * 0x9E3779B97F4A7C15ul + uint64_t(abs(d[i]));
  dmat2 m = dmat2(d[i], 1.0lf, 2.0lf, d[(i + 1u) % 8u]);
  dd[i] = determinant(m) + double(a[i]) / 3.0lf;
  dv[i] = m * dvec2(0.5lf, double(b[i] & 0xfful));
}
