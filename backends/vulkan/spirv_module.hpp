// Walking and rewriting the raw words of a SPIR-V module, for the checks and
// rewrites the Vulkan backend applies before a module reaches the driver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace porta::vk {

// The string operand of an instruction, as a std::string (it is NUL-padded).
inline std::string literal_string(const uint32_t* words, size_t count) {
  const char* text = reinterpret_cast<const char*>(words);
  return std::string(text, strnlen(text, count * sizeof(uint32_t)));
}

struct Instruction {
  uint32_t opcode;
  const uint32_t* operands;
  uint32_t operand_count;
  size_t at;  // word index of the instruction
};

template <class Visit>
void for_each_instruction(const uint32_t* words, size_t count, Visit&& visit) {
  size_t at = 5;  // after the header
  while (at < count) {
    const uint32_t length = words[at] >> 16;
    if (length == 0 || at + length > count) return;  // malformed: the driver's validation says so
    visit(Instruction{words[at] & 0xffffu, words + at + 1, length - 1, at});
    at += length;
  }
}

// Appends one instruction to `out`.
inline void emit_instruction(std::vector<uint32_t>& out, uint32_t opcode,
                             std::initializer_list<uint32_t> operands) {
  out.push_back(uint32_t(operands.size() + 1) << 16 | opcode);
  out.insert(out.end(), operands);
}

// What rewrite_module rebuilds (rewrites.cpp).
struct Rewrites {
  // OpSRem and OpSMod from OpSDiv, which the Vulkan SPIR-V environment
  // defines for every sign; it leaves them undefined for negative operands
  // unless VK_KHR_maintenance8 is enabled.
  bool signed_remainders = false;
  // GLSL.std.450 FMix as x * (1 - a) + y * a, as GLSL defines it.
  bool fmix = false;
};
std::vector<uint32_t> rewrite_module(const std::vector<uint32_t>& module, const Rewrites& which);

}  // namespace porta::vk
