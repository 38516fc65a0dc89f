// porta-conformance: --groups 4,1,1 --inputs auto --elements 256
// what: exact float arithmetic chains: add/sub/mul by powers of two, negation, comparisons and ?: on floats
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer A { float a[]; };
layout(binding = 1) readonly buffer B { float b[]; };
layout(binding = 2) writeonly buffer Out { vec4 y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  float p = a[i], q = b[i];
  float s = p + q;
  float d = p - q;
  y[i] = vec4(s * 0.25 - d * 4.0, -s, p > q ? p * 0.5 : q * 2.0, (p <= q ? 1.0 : 0.0) + (p == p ? 2.0 : 0.0));
}
