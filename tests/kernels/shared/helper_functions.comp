// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: functions that read and write shared arrays (global shared state used from several call sites) and return values from them
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };

shared float stage[64];

void store(uint slot, float v) { stage[slot] = v; }

float window_max(uint center, uint radius) {
  float m = stage[center];
  for (uint d = 1u; d <= radius; ++d) m = max(m, max(stage[(center + d) & 63u], stage[(center - d) & 63u]));
  return m;
}

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  store(l, x[i]);
  barrier();
  float a = window_max(l, 2u);
  barrier();
  store(l, a - x[i]);
  barrier();
  y[i] = window_max(l, 1u) + a;
}
