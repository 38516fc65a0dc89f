// porta-conformance: --groups 1,1,1 --inputs auto --elements 32
// what: a runtime array of structs holding a mat4 model matrix and a vec4: transform and write back
#version 450
layout(local_size_x = 32) in;

struct Instance { vec4 color; mat4 model; float scale; };
layout(std430, binding = 0) readonly buffer In { Instance inst[]; };
layout(std430, binding = 1) writeonly buffer Out { vec4 y[]; };

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on summation order or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }
vec4 q8(vec4 v) { return floor(v * 8.0) * 0.125; }
vec3 q8(vec3 v) { return floor(v * 8.0) * 0.125; }
vec2 q8(vec2 v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  Instance s = inst[i];
  mat4 m = mat4(q8(s.model[0]), q8(s.model[1]), q8(s.model[2]), q8(s.model[3]));
  y[i] = m * q8(s.color) * 0.5 + vec4(s.scale);
}
