// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: loops and branches with control-flow attributes ([[unroll]], [[dont_unroll]], [[flatten]], [[branch]]) compute the same values
#version 450
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uvec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v = x[i];
  uint a = 0u, b = 0u;
  [[unroll]] for (uint k = 0u; k < 8u; ++k) a = a * 3u + (v >> k);
  [[dont_unroll]] for (uint k = 0u; k < v; ++k) b += k * k;
  uint c;
  [[flatten]] if ((v & 1u) == 0u) c = a ^ b; else c = a + b;
  uint d;
  [[branch]] if (v > 32u) d = c * 5u; else d = c - 5u;
  y[i] = uvec4(a, b, c, d);
}
