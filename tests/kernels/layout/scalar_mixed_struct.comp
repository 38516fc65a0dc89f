// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: scalar layout struct {vec2; vec3; int; vec2}: offsets 0, 8, 20, 24; stride 32
#version 450
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;

struct M { vec2 uv; vec3 n; int id; vec2 w; };
layout(scalar, binding = 0) readonly buffer In { M m[]; };
layout(std430, binding = 1) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  M v = m[i];
  y[i] = vec4(v.uv * v.w, v.n.z + float(v.id), v.n.x - v.n.y);
}
