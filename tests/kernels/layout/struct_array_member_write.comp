// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: writes one member of each struct of a runtime array; the other members keep their bytes
#version 450
layout(local_size_x = 64) in;

struct Body { vec4 pos; vec4 vel; float mass; int kind; };
layout(std430, binding = 0) buffer Bodies { Body b[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  b[i].pos.xyz += b[i].vel.xyz * 0.5;
  b[i].kind = b[i].kind + 1;
}
