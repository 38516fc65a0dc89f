// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: prefix sum of predicate flags gives each selected element its output position (the first step of compaction); the work-group count too
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Pos { uint pos[]; };
layout(binding = 2) writeonly buffer Count { uint count[]; };

shared uint flags[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  uint f = uint(x[i] > 20u && (x[i] & 1u) == 0u);
  flags[l] = f;
  barrier();
  for (uint off = 1u; off < 64u; off <<= 1) {
    uint v = l >= off ? flags[l - off] : 0u;
    barrier();
    flags[l] += v;
    barrier();
  }
  pos[i] = f == 1u ? flags[l] - 1u : 0xFFFFFFFFu;
  if (l == 63u) count[gl_WorkGroupID.x] = flags[63];
}
