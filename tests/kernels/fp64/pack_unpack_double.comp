// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// porta-requires: fp64
// what: packDouble2x32/unpackDouble2x32 keep the bits (normal doubles built from integer words)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) readonly buffer F { double f[]; };
layout(binding = 2) writeonly buffer Out { double y[]; };
layout(binding = 3) writeonly buffer OutU { uvec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  // High word 0x3FF0xxxx or 0xC00xxxxx: normal numbers in [1, 2) or (-4, -2].
  uint hi = ((i & 1u) == 0u ? 0x3FF00000u : 0xC0000000u) | (a[i] * 0x1357u & 0xFFFFFu);
  double d = packDouble2x32(uvec2(a[i] * 0x9E3779B9u, hi));
  y[i] = d * 2.0lf;
  z[i] = uvec4(unpackDouble2x32(d), unpackDouble2x32(f[i] * 0.5lf));
}
