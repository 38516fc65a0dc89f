#version 450
// Spec constants of every scalar width (8-, 16-, 32- and 64-bit integers,
// float and double, bool), each written back so --expect can check the value
// every device was given.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 4) in;
layout(constant_id = 0) const int64_t BIG = 1l;
layout(constant_id = 1) const uint64_t UBIG = 1ul;
layout(constant_id = 2) const double D = 1.0lf;
layout(constant_id = 3) const int16_t SHORT = 1s;
layout(constant_id = 4) const uint8_t BYTE = uint8_t(1);
layout(constant_id = 5) const int8_t SBYTE = int8_t(1);
layout(constant_id = 6) const bool FLAG = false;
layout(constant_id = 7) const float F = 1.0;
layout(set = 0, binding = 0) writeonly buffer Out {
  int64_t big;
  uint64_t ubig;
  double d;
  int short_value;
  uint byte_value;
  int sbyte_value;
  uint flag;
  float f;
  int64_t sums[];
};
void main() {
  // Conversions of the narrow constants happen on values, not on the constants:
  // a spec-constant UConvert/SConvert needs SPIR-V 1.4.
  int16_t short_in = SHORT;
  uint8_t byte_in = BYTE;
  int8_t sbyte_in = SBYTE;
  uint i = gl_GlobalInvocationID.x;
  if (i == 0u) {
    big = BIG;
    ubig = UBIG;
    d = D;
    short_value = int(short_in);
    byte_value = uint(byte_in);
    sbyte_value = int(sbyte_in);
    flag = FLAG ? 1u : 0u;
    f = F;
  }
  sums[i] = BIG + int64_t(i) * int64_t(short_in) + int64_t(sbyte_in);
}
