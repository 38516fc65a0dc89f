// porta-conformance: --groups 2,1,1 --inputs auto --elements 128
// what: bitwise CRC-32 of 16 bytes per invocation: shifts, xor and data-dependent branches in nested loops
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer Data { uint words[]; };
layout(binding = 1) writeonly buffer Out { uint crc[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint c = 0xFFFFFFFFu;
  for (uint w = 0u; w < 4u; ++w) {
    uint word = words[(i + w * 32u) & 127u] * 0x9E3779B1u;
    for (uint byte = 0u; byte < 4u; ++byte) {
      c ^= (word >> (8u * byte)) & 0xFFu;
      for (int bit = 0; bit < 8; ++bit) c = (c & 1u) != 0u ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
  }
  crc[i] = ~c;
}
