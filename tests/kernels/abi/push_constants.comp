// porta-conformance: --groups 2,1,1 --inputs auto --elements 128 --push u32:3,17 --push f32:0.5
// what: a push-constant block (two uints and a float) passed by value after the buffers
#version 450
layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
  uint multiplier;
  uint offset;
  float scale;
} pc;
layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint j = (i * pc.multiplier + pc.offset) & 127u;
  y[i] = x[j] * pc.scale;
}
