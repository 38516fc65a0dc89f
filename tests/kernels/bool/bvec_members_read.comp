// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: bvec2/bvec3/bvec4 members read from a buffer (std430: bvec3 aligned like uvec3) feed mix, any, all
#version 450
layout(local_size_x = 64) in;

struct Mask { bvec4 m4; bvec3 m3; bool b; bvec2 m2; };
layout(std430, binding = 0) readonly buffer In { Mask m[]; };
layout(std430, binding = 1) readonly buffer Vals { vec4 v[]; };
layout(std430, binding = 2) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  Mask k = m[i];
  vec4 x = v[i];
  vec4 r = mix(x, -x, k.m4);
  r.xyz += vec3(k.m3) * 8.0;
  r.w += float(any(k.m2)) + float(all(k.m3)) * 2.0 + (k.b ? 16.0 : 0.0);
  y[i] = r;
}
