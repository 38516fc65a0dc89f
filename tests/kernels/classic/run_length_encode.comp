// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: run-length encoding of 64 small symbols per work-group: run heads flagged, scanned to run indices, run lengths from head positions
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { uint x[]; };
layout(binding = 1) writeonly buffer Runs { uvec2 runs[]; };  // (symbol, length), 64 slots per work-group
layout(binding = 2) writeonly buffer Count { uint count[]; };

shared uint sym[64];
shared uint run_index[64];
shared uint head_pos[65];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x, base = gl_WorkGroupID.x * 64u;
  sym[l] = x[i] >> 4;  // 4 symbols: long runs are common
  barrier();
  uint head = uint(l == 0u || sym[l] != sym[l - 1u]);
  run_index[l] = head;
  barrier();
  for (uint off = 1u; off < 64u; off <<= 1) {
    uint add = l >= off ? run_index[l - off] : 0u;
    barrier();
    run_index[l] += add;
    barrier();
  }
  uint runs_total = run_index[63];
  if (head == 1u) head_pos[run_index[l] - 1u] = l;
  if (l == 0u) head_pos[runs_total] = 64u;
  barrier();
  if (l < runs_total) runs[base + l] = uvec2(sym[head_pos[l]], head_pos[l + 1u] - head_pos[l]);
  else runs[base + l] = uvec2(0xFFFFFFFFu, 0u);
  if (l == 0u) count[gl_WorkGroupID.x] = runs_total;
}
