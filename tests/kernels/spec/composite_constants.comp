// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --spec 0=7 --spec 1=1.5
// what: composite specialization constants (OpSpecConstantComposite): ivec3 and vec2 built from spec constants, indexed dynamically
#version 450
layout(local_size_x = 64) in;

layout(constant_id = 0) const int K = 2;
layout(constant_id = 1) const float F = 0.25;

const ivec3 V = ivec3(K, K * 2, 3);
const vec2 W = vec2(F, 1.0);

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };
layout(binding = 2) writeonly buffer OutF { vec2 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = x[i];
  y[i] = ivec4(V * v, V[i % 3u]);
  z[i] = W * float(v) + W.yx;
}
