// porta-conformance: --groups 1,1,1 --inputs auto --elements 64 --tolerance-ulp 256
// what: one all-pairs n-body step for 64 bodies (softened 1/r^3 forces summed in a fixed order, inversesqrt 2 ulp); outputs offset from zero, 256 ulp for 64 summed terms
#version 450
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Pos { vec4 pos[]; };  // xyz, mass in w
layout(std430, binding = 1) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = 2) writeonly buffer NewVel { vec4 new_vel[]; };

shared vec4 body[64];

void main() {
  uint i = gl_GlobalInvocationID.x;
  body[i] = vec4(pos[i].xyz, abs(pos[i].w) + 0.5);
  barrier();
  vec3 p = body[i].xyz;
  vec3 acc = vec3(0.0);
  for (uint j = 0u; j < 64u; ++j) {
    vec3 d = body[j].xyz - p;
    float r2 = dot(d, d) + 0.25;  // softening
    float inv = inversesqrt(r2);
    acc += d * (body[j].w * inv * inv * inv);
  }
  // Velocities in [-2, 2], the step's change below 16: the offset of 32 keeps results away from zero.
  new_vel[i] = vec4(vel[i].xyz + acc * 0.015625 + 32.0, vel[i].w);
}
