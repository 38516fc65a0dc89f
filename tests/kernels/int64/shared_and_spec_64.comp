// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --spec 0=-5000000000
// porta-requires: int64
// what: an int64_t specialization constant beyond 32 bits and int64_t values exchanged through shared memory
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;

layout(constant_id = 0) const int64_t OFFSET = 1l;

layout(binding = 0) readonly buffer A { uint a[]; };
layout(binding = 1) writeonly buffer Out { int64_t y[]; };

shared int64_t tile[64];

void main() {
  uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
  tile[l] = int64_t(a[i]) * 0x100000000l + OFFSET;
  barrier();
  y[i] = tile[63u - l] - tile[l] / 3l;
}
