// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: int/uint to float (rounded to nearest even above 2^24) and float to int/uint (truncation toward zero)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { int a[]; };
layout(binding = 1) readonly buffer F { float f[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };
layout(binding = 3) writeonly buffer OutI { ivec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int big = 0x01000001 + a[i] * 0x00100003;  // above 2^24: not exactly representable
  uint ubig = 0xFFFFFF00u + uint(a[i]);
  y[i] = vec4(float(big), float(-big), float(ubig), float(a[i] - 32));
  float x = f[i] * 1000.0;                    // [-2000, 2000]
  z[i] = ivec4(int(x), int(-x), int(uint(abs(x))), int(f[i] * 7.9));
}
