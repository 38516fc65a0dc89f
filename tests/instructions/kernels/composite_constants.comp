#version 450
// porta-conformance: --groups 1,1,1 --buffer random:4:256 --buffer zeros:1024 --tolerance 4
// what: constant arrays and structs (composite initialisers), a struct type used by two blocks (type aliases), composite spec constants, dynamic indexing of constant tables
layout(local_size_x = 64) in;
struct Pair { float a; uint b; };
layout(constant_id = 0) const float S0 = 1.5;
layout(constant_id = 1) const float S1 = -2.0;
const vec2 SPEC_PAIR = vec2(S0, S1);
const float K[3] = float[](0.25, 0.5, 1.0);
const Pair P[2] = Pair[](Pair(1.0, 2u), Pair(3.0, 4u));
const ivec2 IV[2] = ivec2[](ivec2(1, -2), ivec2(-3, 4));
layout(std430, binding = 0) readonly buffer In { Pair pairs_in[]; };
layout(std430, binding = 1) writeonly buffer Out { Pair pairs_out[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  Pair p = pairs_in[i % 32u];
  float k[3] = K;
  k[i % 3u] += 1.0;
  Pair q = P[i % 2u];
  ivec2 v = IV[(i + 1u) % 2u];
  pairs_out[2u * i] = Pair(p.a * k[0] + k[1] + K[i % 3u] + SPEC_PAIR.x, p.b + q.b);
  pairs_out[2u * i + 1u] = Pair(q.a + SPEC_PAIR.y + float(v.x * v.y), uint(v.y) ^ p.b);
}
