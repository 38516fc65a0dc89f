// porta-conformance: --groups 4,1,1 --inputs auto --elements 256 --spec 0=6 --spec 1=3
// what: OpSpecConstantOp expressions: + - * / %, shifts, bit ops, comparisons, logical ops, ?: and int/uint conversions of spec constants
#version 450
layout(local_size_x = 64) in;

layout(constant_id = 0) const int A = 2;
layout(constant_id = 1) const int B = 5;

const int SUM = A + B;
const int PROD = A * B - 1;
const int QUOT = (A * 100) / B;
const int REM = (A * 100) % B;
const int SHIFTED = (A << 4) | (B >> 1);
const int BITS = (A & 6) ^ ~B;
const bool LESS = A < B;
const bool BOTH = LESS && (A != 0);
const int PICK = LESS ? A : B;
const uint AS_UINT = uint(A) * 3u;
const int NEG = -A;

layout(binding = 0) readonly buffer In { int x[]; };
layout(binding = 1) writeonly buffer Out { ivec4 y[]; };
layout(binding = 2) writeonly buffer Out2 { ivec4 z[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  int v = x[i];
  y[i] = ivec4(v + SUM, v * PROD, QUOT + REM, SHIFTED ^ v);
  z[i] = ivec4(BITS, BOTH ? 1 : 0, PICK * v, int(AS_UINT) + NEG);
}
