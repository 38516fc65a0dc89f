// porta-conformance: --groups 2,1,1 --inputs auto --elements 8
// what: scalar block layout: vec3 arrays with stride 12, a float in a vec3's fourth slot, a vec2 at offset 16
#version 450
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 4) in;
struct P { vec3 pos; float w; vec2 uv; };
layout(scalar, binding = 0) readonly buffer In { vec3 v[]; } src;
layout(scalar, binding = 1) buffer Ps { P ps[]; };
layout(std430, binding = 2) writeonly buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[i] = src.v[i].y + ps[i].w + ps[i].uv.y + ps[i].pos.z;
  ps[i].pos = src.v[i] * 2.0;
}
