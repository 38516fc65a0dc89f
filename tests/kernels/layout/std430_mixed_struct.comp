// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: std430 struct {float; vec2; vec4; int; float[3]}: offsets 0, 8, 16, 32, 36; stride 48
#version 450
layout(local_size_x = 64) in;

struct Rec { float a; vec2 b; vec4 c; int d; float e[3]; };
layout(std430, binding = 0) readonly buffer In { Rec r[]; };
layout(std430, binding = 1) writeonly buffer Out { Rec o[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  Rec v = r[i];
  Rec w;
  w.a = v.e[0] + v.e[2];
  w.b = v.b.yx;
  w.c = v.c * v.a;
  w.d = v.d * 2 + 1;
  w.e[0] = v.c.w;
  w.e[1] = float(v.d);
  w.e[2] = v.b.x - v.e[1];
  o[i] = w;
}
