// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: outerProduct(vec3, vec4) = mat4x3 and outerProduct(vec2, vec2) (OpOuterProduct)
#version 450
layout(local_size_x = 64) in;

struct P { vec3 c; vec4 r; };
struct R { mat4x3 m; mat2 n; };
layout(std430, binding = 0) readonly buffer In { P p[]; };
layout(std430, binding = 1) writeonly buffer Out { R y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i].m = outerProduct(p[i].c, p[i].r);
  y[i].n = outerProduct(p[i].r.xy, p[i].c.zy);
}
