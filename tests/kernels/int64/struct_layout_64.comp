// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// porta-requires: int64
// what: std430 structs mixing uint and int64_t/u64vec2 (8-byte alignment: padding after the uint), read and written
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

struct Rec { uint tag; int64_t value; u64vec2 pair; uint tail; };
layout(std430, binding = 0) readonly buffer In { Rec r[]; };
layout(std430, binding = 1) writeonly buffer Out { Rec o[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  Rec v = r[i];
  o[i] = Rec(v.tail + 1u, v.value * -3l + int64_t(v.tag), v.pair.yx + u64vec2(v.tag), v.tag ^ 0xFFu);
}
