// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: a uniform block holding a vec4 array (std140 stride 16) used as a lookup table
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) uniform Table { vec4 rows[16]; } table;
layout(binding = 1) readonly buffer In { uint key[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 r = table.rows[key[i] & 15u];
  y[i] = r.wzyx + vec4(float(i & 3u));
}
