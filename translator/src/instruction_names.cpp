// The name of a SPIR-V instruction, for refusals that say what they refused.
// The SPIR-V headers carry no opcode names; SPIRV-Tools' disassembler does, so
// the instruction alone is disassembled (ids it references need not exist: the
// disassembler parses, it does not validate).
#include <cctype>
#include <spirv-tools/libspirv.hpp>
#include <string>

#include "spirv_words.hpp"

namespace porta::translator {

std::string instruction_name(const uint32_t* words, uint32_t count, const std::string& extended_set) {
  const uint32_t opcode = count ? words[0] & 0xffffu : 0u;
  const bool extended = opcode == spv::OpExtInst && count >= 5;
  const std::string fallback = extended ? "OpExtInst " + extended_set + " " + std::to_string(words[4])
                                        : "opcode " + std::to_string(opcode);
  if (count == 0) return fallback;
  std::vector<uint32_t> module = {kSpirvMagic, 0x00010300u, 0u, 0x003fffffu, 0u};
  if (extended) {
    // The set's import, so that the instruction number reads as its name.
    std::vector<uint32_t> name((extended_set.size() + 4) / 4, 0u);
    for (size_t i = 0; i < extended_set.size(); ++i)
      name[i / 4] |= uint32_t(static_cast<unsigned char>(extended_set[i])) << (8 * (i % 4));
    module.push_back(((2u + uint32_t(name.size())) << 16) | spv::OpExtInstImport);
    module.push_back(words[3]);
    module.insert(module.end(), name.begin(), name.end());
  }
  module.insert(module.end(), words, words + count);
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_3);
  tools.SetMessageConsumer([](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
  std::string text;
  if (!tools.Disassemble(module, &text, SPV_BINARY_TO_TEXT_OPTION_NO_HEADER)) return fallback;
  // "%5 = OpSMod %int %3 %4": the first word that starts with "Op"; an
  // extended instruction by its set and name ("GLSL.std.450 Fract").
  if (extended) {
    std::string last_line = text.substr(text.rfind('\n', text.size() - 2) + 1);
    std::vector<std::string> tokens;
    for (size_t at = 0; at < last_line.size();) {
      const size_t end = last_line.find_first_of(" \n", at);
      if (end != at) tokens.push_back(last_line.substr(at, end - at));
      if (end == std::string::npos) break;
      at = end + 1;
    }
    // %r = OpExtInst %type %set Name ...
    return tokens.size() >= 6 ? extended_set + " " + tokens[5] : fallback;
  }
  for (size_t at = text.find("Op"); at != std::string::npos; at = text.find("Op", at + 2)) {
    if (at != 0 && text[at - 1] != ' ') continue;
    size_t end = at;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_'))
      ++end;
    return text.substr(at, end - at);
  }
  return fallback;
}

}  // namespace porta::translator
