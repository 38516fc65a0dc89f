// porta-conformance: --groups 1,1,1 --inputs auto --elements 64
// what: nested structs in a std140 uniform block (struct alignment rounded to 16, arrays of structs)
#version 450
layout(local_size_x = 64) in;

struct Inner { float s; vec2 t; };
struct Outer { Inner in0; float gap; Inner arr[2]; ivec3 idx; };
layout(std140, binding = 0) uniform U { float head; Outer o; float last; } u;
layout(std430, binding = 1) writeonly buffer Out { float y[]; };

// Inputs rounded to multiples of 1/8: the products and sums below are exact, so a
// fused multiply-add and a separate multiply and add give the same bits.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint i = gl_GlobalInvocationID.x;
  Inner sel = u.o.arr[i & 1u];
  float v = u.head + u.o.in0.s + u.o.in0.t.y + u.o.gap + q8(sel.s) * q8(sel.t.x) + float(u.o.idx[i % 3u]) + u.last;
  y[i] = v * float(i + 1u);
}
