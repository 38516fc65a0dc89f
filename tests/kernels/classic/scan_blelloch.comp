// porta-conformance: --groups 4,1,1 --inputs auto --elements 512
// what: Blelloch work-efficient exclusive scan (up-sweep, clear, down-sweep) of 128 uints per work-group, two per invocation
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };
layout(binding = 2) writeonly buffer Totals { uint totals[]; };

shared uint temp[128];

void main() {
  uint l = gl_LocalInvocationID.x;
  uint base = gl_WorkGroupID.x * 128u;
  temp[2u * l] = x[base + 2u * l];
  temp[2u * l + 1u] = x[base + 2u * l + 1u];
  uint offset = 1u;
  for (uint d = 64u; d > 0u; d >>= 1) {
    barrier();
    if (l < d) {
      uint ai = offset * (2u * l + 1u) - 1u, bi = offset * (2u * l + 2u) - 1u;
      temp[bi] += temp[ai];
    }
    offset *= 2u;
  }
  barrier();
  if (l == 0u) {
    totals[gl_WorkGroupID.x] = temp[127];
    temp[127] = 0u;
  }
  for (uint d = 1u; d < 128u; d *= 2u) {
    offset >>= 1;
    barrier();
    if (l < d) {
      uint ai = offset * (2u * l + 1u) - 1u, bi = offset * (2u * l + 2u) - 1u;
      uint t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  barrier();
  y[base + 2u * l] = temp[2u * l];
  y[base + 2u * l + 1u] = temp[2u * l + 1u];
}
