// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: arg-max reduction in shared memory (value, index pairs; ties go to the lower index so the answer is unique)
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { uvec2 best[]; };  // (index, float bits) per work-group

shared float value[64];
shared uint index[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  value[l] = floor(x[i] * 4.0);  // coarse values: ties happen
  index[l] = i;
  barrier();
  for (uint s = 32u; s > 0u; s >>= 1) {
    if (l < s) {
      float a = value[l], b = value[l + s];
      if (b > a || (b == a && index[l + s] < index[l])) {
        value[l] = b;
        index[l] = index[l + s];
      }
    }
    barrier();
  }
  if (l == 0u) best[gl_WorkGroupID.x] = uvec2(index[0], floatBitsToUint(value[0]));
}
