// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: null-initialised shared arrays of structs and vectors: members nobody writes read back as zero
#version 450
#extension GL_EXT_null_initializer : require
layout(local_size_x = 64) in;

struct Cell { vec2 pos; int id; float weight; };

layout(binding = 0) readonly buffer In { float x[]; };
layout(binding = 1) writeonly buffer Out { vec4 y[]; };

shared Cell cells[64] = {};
shared vec4 extra[8] = {};

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  // Only even slots are written, and only their pos member.
  if ((l & 1u) == 0u) cells[l].pos = vec2(x[i], -x[i]);
  barrier();
  Cell c = cells[l ^ 1u];
  y[i] = vec4(c.pos, float(c.id) + c.weight, extra[l & 7u].w);
}
