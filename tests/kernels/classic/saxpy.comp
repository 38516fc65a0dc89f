// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --push f32:0.75
// what: saxpy y = a*x + y with a from a push constant; x and y in 1/8 steps and a = 0.75, so the fused and unfused results agree
#version 450
layout(local_size_x = 64) in;

layout(push_constant) uniform P { float a; } p;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) buffer Y { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  float xv = floor(x[i] * 8.0) * 0.125, yv = floor(y[i] * 8.0) * 0.125;
  y[i] = p.a * xv + yv;
}
