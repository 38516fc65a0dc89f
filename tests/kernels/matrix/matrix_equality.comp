// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: == and != on matrices (all components compared) written as integers
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer A { mat3 a[]; };
layout(std430, binding = 1) writeonly buffer Out { uint y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  mat3 x = a[i];
  mat3 same = mat3(x[0], x[1], x[2]);
  mat3 other = x;
  other[i % 3u][(i / 3u) % 3u] += 1.0;
  y[i] = uint(x == same) + 2u * uint(x != other) + 4u * uint(x == other) + 8u * uint(transpose(x) == x);
}
