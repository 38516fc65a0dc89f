// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: one buffer seen as a header struct plus runtime array and as a plain uint array
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer WithHeader {
  uint count;
  uint base;
  uint items[];
} h;
layout(binding = 0) readonly buffer Raw { uint raw[]; };
layout(binding = 1) writeonly buffer Out { uint y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  // Word k of the raw view is word k of the header view: raw[i + 2] is items[i].
  uint same = i < 62u ? uint(raw[i + 2u] == h.items[i]) : 1u;
  y[i] = h.items[i] + h.base * 1000u + same * 1000000u + raw[0] * 7u + raw[i];
}
