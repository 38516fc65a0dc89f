// KernelSignature → readable text.
#include <cstring>
#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>

#include "porta/porta.h"
#include "porta_translator/translator.hpp"

namespace porta::translator {
namespace {

// The name of an enumerator, from a list of (value, name).
template <class Enum>
const char* name_of(Enum value, std::initializer_list<std::pair<Enum, const char*>> names) {
  for (const auto& [candidate, name] : names)
    if (candidate == value) return name;
  return "?";
}

const char* access_name(Access access) {
  return name_of(
      access, {{Access::Read, "readonly"}, {Access::Write, "writeonly"}, {Access::ReadWrite, "readwrite"}});
}

}  // namespace

std::string describe(const KernelSignature& s) {
  std::ostringstream out;
  out << "entry point: " << s.entry_point << "\n";
  out << "work-group size: ";
  for (int d = 0; d < 3; ++d) {
    out << (d ? " x " : "") << s.local_size[d];
    if (s.local_size_spec_id[d] >= 0) out << " (constant_id " << s.local_size_spec_id[d] << ")";
  }
  out << "\n";
  out << "buffers (parameter order):\n";
  if (s.buffers.empty()) out << "  none\n";
  for (size_t i = 0; i < s.buffers.size(); ++i) {
    const BufferBinding& b = s.buffers[i];
    out << "  [" << i << "] set " << b.set << ", binding " << b.binding;
    // An element of an array of blocks (its first has index 0 and a next one).
    const bool in_array = b.array_index > 0 || (i + 1 < s.buffers.size() && s.buffers[i + 1].set == b.set &&
                                                s.buffers[i + 1].binding == b.binding);
    if (in_array) out << "[" << b.array_index << "]";
    out << ": " << (b.kind == BufferKind::Uniform ? "uniform " : "") << b.name << " ("
        << access_name(b.access) << ", at least " << b.min_size << " bytes)\n";
  }
  out << "push constants: " << s.push_constant_size << " bytes\n";
  for (const PushConstantMember& m : s.push_constants)
    out << "  offset " << m.offset << ", size " << m.size << ": " << m.type << " " << m.name << "\n";
  out << "spec constants:" << (s.spec_constants.empty() ? " none" : "") << "\n";
  for (const SpecConstant& c : s.spec_constants)
    out << "  constant_id " << c.id << ": " << spec_type_name(c) << " "
        << (c.name.empty() ? "(unnamed)" : c.name) << " = " << format_spec_value(c, c.default_bits) << "\n";
  out << "shared memory: " << s.shared_memory_bytes << " bytes\n";
  out << "barriers: " << (s.uses_barrier ? "yes" : "no") << "\n";
  out << "required features:";
  if (s.required_features == 0) out << " none";
  for (int bit = 0; bit < 64; ++bit)
    if (const char* name = porta_feature_name_inline(s.required_features & (uint64_t{1} << bit)))
      out << " " << name;
  out << "\n";
  return out.str();
}

}  // namespace porta::translator
