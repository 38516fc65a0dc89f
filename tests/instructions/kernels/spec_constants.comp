#version 450
// porta-conformance: --groups 2,1,1 --buffer zeros:1024 --spec 0=16 --spec 1=3 --spec 2=-5 --spec 3=1 --spec 4=2.5
// what: spec constants of every kind: workgroup size (local_size_x_id), uint/int/bool/float, expressions of them (OpSpecConstantOp), array sizes from them, a composite of them
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint N = 4u;
layout(constant_id = 2) const int K = 2;
layout(constant_id = 3) const bool FLAG = false;
layout(constant_id = 4) const float SCALE = 1.0;
const uint M = N * 2u + 1u;           // OpSpecConstantOp
const int NEG = -K;                   // OpSpecConstantOp (SNegate)
const uvec2 PAIR = uvec2(N, M);       // OpSpecConstantComposite
layout(std430, binding = 0) buffer Out { uint r[]; };
shared uint tile[gl_WorkGroupSize.x];
void main() {
  uint l = gl_LocalInvocationID.x, g = gl_GlobalInvocationID.x;
  float weights[M];
  for (uint i = 0u; i < M; ++i) weights[i] = float(i) * SCALE;
  uint local_values[N];
  for (uint i = 0u; i < N; ++i) local_values[i] = i + l;
  tile[l] = l * 3u;
  barrier();
  uint o = 8u * g;
  r[o + 0] = gl_WorkGroupSize.x;
  r[o + 1] = M + PAIR.x * 100u + PAIR.y * 10000u;
  r[o + 2] = uint(NEG + K * 3);
  r[o + 3] = FLAG ? 1u : 0u;
  r[o + 4] = uint(weights[M - 1u] * 2.0);
  r[o + 5] = local_values[N - 1u] + uint(local_values.length()) * 1000u;
  r[o + 6] = tile[(l + 1u) % gl_WorkGroupSize.x];
  r[o + 7] = uint(weights.length());
}
