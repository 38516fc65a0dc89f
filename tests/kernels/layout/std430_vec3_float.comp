// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: std430 struct {vec3; float} packs the float into the vec3's fourth word (offsets 0 and 12, stride 16)
#version 450
layout(local_size_x = 64) in;

struct Particle { vec3 pos; float mass; };
layout(std430, binding = 0) readonly buffer In { Particle p[]; };
layout(std430, binding = 1) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  Particle q = p[i];
  y[i] = vec4(q.pos * q.mass, q.mass + q.pos.z);
}
