// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: shared arrays of structs holding vec3 and of vec3 (no buffer layout rules apply) written and read by other invocations
#version 450
layout(local_size_x = 64) in;

struct P { vec3 pos; float m; ivec2 cell; };

layout(binding = 0) readonly buffer In { vec4 x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };

shared P parts[64];
shared vec3 dirs[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  parts[l] = P(x[i].xyz, x[i].w, ivec2(l, 63u - l));
  dirs[l] = x[i].zyx * 2.0;
  barrier();
  P o = parts[(l + 17u) & 63u];
  y[i] = vec4(o.pos + dirs[(l + 5u) & 63u], o.m + float(o.cell.x - o.cell.y));
}
