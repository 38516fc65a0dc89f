#version 450
// A runtime array of nested structs after a fixed header, integer and float
// members, push constants: --inputs auto types every member.
layout(local_size_x = 16) in;
struct Motion { vec2 vel; float spin; float drag; };
struct Particle { vec4 pos; Motion m; uint id; int flag; uint pad[2]; };
layout(set = 0, binding = 0) buffer Particles { uint count; float scale; Particle data[]; } ps;
layout(set = 0, binding = 1) readonly buffer Index { uint idx[]; };
layout(push_constant) uniform Push { float dt; uint n; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  Particle p = ps.data[i];
  p.pos.xy += p.m.vel * pc.dt * ps.scale;
  p.pos.w = p.pos.w * p.m.drag - p.m.spin;
  p.id = idx[i] * 3u + p.id;
  p.flag = p.flag - 32;
  ps.data[i] = p;
  if (i == 0u) atomicAdd(ps.count, pc.n);
}
