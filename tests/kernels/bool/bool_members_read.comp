// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: bool members of a buffer struct (stored as 32-bit words; any nonzero word is true) steer arithmetic
#version 450
layout(local_size_x = 64) in;

struct Item { float value; bool negate; bool skip; int weight; };
layout(std430, binding = 0) readonly buffer In { Item items[]; };
layout(std430, binding = 1) writeonly buffer Out { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  Item it = items[i];
  float v = it.negate ? -it.value : it.value;
  y[i] = it.skip ? 0.5 : v * 2.0 + float(it.weight);
}
