// KernelSignature → readable text.
#include <cstring>
#include <sstream>
#include <string>

#include "porta/porta.h"
#include "porta_translator/translator.hpp"

namespace porta::translator {
namespace {

const char* access_name(Access access) {
  switch (access) {
    case Access::Read:
      return "readonly";
    case Access::Write:
      return "writeonly";
    case Access::ReadWrite:
      return "readwrite";
  }
  return "?";
}

const char* scalar_name(ScalarType type) {
  switch (type) {
    case ScalarType::Bool:
      return "bool";
    case ScalarType::Int:
      return "int";
    case ScalarType::UInt:
      return "uint";
    case ScalarType::Float:
      return "float";
  }
  return "?";
}

std::string spec_value(ScalarType type, uint32_t bits) {
  switch (type) {
    case ScalarType::Bool:
      return bits ? "true" : "false";
    case ScalarType::Int:
      return std::to_string(static_cast<int32_t>(bits));
    case ScalarType::UInt:
      return std::to_string(bits);
    case ScalarType::Float: {
      float value;
      std::memcpy(&value, &bits, sizeof(value));
      std::ostringstream out;
      out.precision(9);
      out << value;
      return out.str();
    }
  }
  return "?";
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
  for (size_t i = 0; i < s.buffers.size(); ++i)
    out << "  [" << i << "] set " << s.buffers[i].set << ", binding " << s.buffers[i].binding << ": "
        << s.buffers[i].name << " (" << access_name(s.buffers[i].access) << ")\n";
  out << "push constants: " << s.push_constant_size << " bytes\n";
  for (const PushConstantMember& m : s.push_constants)
    out << "  offset " << m.offset << ", size " << m.size << ": " << m.type << " " << m.name << "\n";
  out << "spec constants:" << (s.spec_constants.empty() ? " none" : "") << "\n";
  for (const SpecConstant& c : s.spec_constants)
    out << "  constant_id " << c.id << ": " << scalar_name(c.type) << " "
        << (c.name.empty() ? "(unnamed)" : c.name) << " = " << spec_value(c.type, c.default_bits) << "\n";
  out << "shared memory: " << s.shared_memory_bytes << " bytes\n";
  out << "barriers: " << (s.uses_barrier ? "yes" : "no") << "\n";
  static const struct {
    uint64_t bit;
    const char* name;
  } kFeatures[] = {{PORTA_FEATURE_FP16, "fp16"},
                   {PORTA_FEATURE_FP64, "fp64"},
                   {PORTA_FEATURE_INT8, "int8"},
                   {PORTA_FEATURE_INT16, "int16"},
                   {PORTA_FEATURE_INT64, "int64"},
                   {PORTA_FEATURE_STORAGE_16BIT, "storage-16bit"},
                   {PORTA_FEATURE_STORAGE_8BIT, "storage-8bit"},
                   {PORTA_FEATURE_SUBGROUPS, "subgroups"},
                   {PORTA_FEATURE_ATOMIC_INT32, "atomic-int32"},
                   {PORTA_FEATURE_ATOMIC_INT64, "atomic-int64"},
                   {PORTA_FEATURE_ATOMIC_FLOAT32, "atomic-float32"}};
  out << "required features:";
  if (s.required_features == 0) out << " none";
  for (const auto& feature : kFeatures)
    if (s.required_features & feature.bit) out << " " << feature.name;
  out << "\n";
  return out.str();
}

}  // namespace porta::translator
