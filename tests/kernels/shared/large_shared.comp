// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: a 12 KiB shared array (3072 floats, within Vulkan's 16 KiB minimum) filled with a strided pattern and read back reversed
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };

shared float big[3072];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  for (uint k = l; k < 3072u; k += 64u) big[k] = x[(k + gl_WorkGroupID.x) & 127u] + float(k >> 6);
  barrier();
  float s = 0.0;
  for (uint k = 0u; k < 48u; ++k) s += big[3071u - (k * 64u + l)];
  y[i] = s;
}
