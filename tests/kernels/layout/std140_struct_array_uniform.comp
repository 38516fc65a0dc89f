// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: a std140 uniform array of structs {vec3; float; vec2; int} (stride 32) indexed dynamically; the float and int fill the vec3's and vec2's tails
#version 450
layout(local_size_x = 64) in;

struct Light { vec3 dir; float power; vec2 range; int kind; };
layout(std140, binding = 0) uniform Lights { Light lights[4]; int count; } u;
layout(std430, binding = 1) readonly buffer In { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  Light l = u.lights[i & 3u];
  y[i] = vec4(l.dir + x[i].xyz, l.power) + vec4(l.range, float(l.kind), float(u.count));
}
