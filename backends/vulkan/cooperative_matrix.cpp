// Cooperative matrices against what a Vulkan device lists (cooperative_matrix.hpp).
#include "cooperative_matrix.hpp"

#include <map>
#include <spirv/unified1/spirv.hpp>

#include "plugin_support.hpp"
#include "spirv_module.hpp"

namespace porta::vk {
namespace {

using plugin::fail;
using plugin::format;

constexpr uint32_t kOpTypeCooperativeMatrixKHR = 4456, kOpCooperativeMatrixLoadKHR = 4457,
                   kOpCooperativeMatrixMulAddKHR = 4459;

std::string component_name(uint32_t type) {
  static const char* const names[] = {"float16", "float32", "float64", "int8",   "int16", "int32",
                                      "int64",   "uint8",   "uint16",  "uint32", "uint64"};
  if (type < 11) return names[type];
  return type == kComponentBfloat16 ? "bfloat16" : "component type " + std::to_string(type);
}

std::string scope_name(uint32_t scope) {
  return scope == 3   ? "Subgroup"
         : scope == 2 ? "Workgroup"
         : scope == 1 ? "Device"
                      : "scope " + std::to_string(scope);
}

std::string describe(const CooperativeMatrixPropertiesKHR& p) {
  return format("%ux%ux%u %s x %s + %s -> %s at %s scope%s", p.MSize, p.NSize, p.KSize,
                component_name(p.AType).c_str(), component_name(p.BType).c_str(),
                component_name(p.CType).c_str(), component_name(p.ResultType).c_str(),
                scope_name(p.scope).c_str(), p.saturatingAccumulation ? ", saturating" : "");
}

std::string describe(const CooperativeMatrixFlexibleDimensionsPropertiesNV& p) {
  return format("multiples of %ux%ux%u %s x %s + %s -> %s at %s scope%s%s", p.MGranularity, p.NGranularity,
                p.KGranularity, component_name(p.AType).c_str(), component_name(p.BType).c_str(),
                component_name(p.CType).c_str(), component_name(p.ResultType).c_str(),
                scope_name(p.scope).c_str(), p.saturatingAccumulation ? ", saturating" : "",
                p.scope == 2 ? format(" in work-groups of %u", p.workgroupInvocations).c_str() : "");
}

}  // namespace

std::string describe_cooperative_matrices(
    const std::vector<CooperativeMatrixPropertiesKHR>& listed,
    const std::vector<CooperativeMatrixFlexibleDimensionsPropertiesNV>& flexible) {
  std::string text;
  for (const auto& p : listed) text += (text.empty() ? "" : "; ") + describe(p);
  for (const auto& p : flexible) text += (text.empty() ? "" : "; ") + describe(p);
  return text.empty() ? "none" : text;
}

void check_cooperative_matrices(const std::vector<CooperativeMatrixPropertiesKHR>& listed_by_device,
                                const std::string& device, const uint32_t* words, size_t count,
                                const std::string& where,
                                const std::vector<CooperativeMatrixFlexibleDimensionsPropertiesNV>& flexible,
                                uint32_t invocations, const std::map<uint32_t, uint32_t>& specs) {
  // A flexible-dimension entry of the scope, and of the work-group size at
  // Workgroup scope (where the kernel's is known).
  const auto flexible_fits = [&](const CooperativeMatrixFlexibleDimensionsPropertiesNV& p, uint32_t scope) {
    return p.scope == scope && (scope != 2 || invocations == 0 || p.workgroupInvocations == invocations);
  };
  struct Matrix {
    uint32_t component = ~0u, scope = 0, rows = 0, cols = 0, use = 0;
    bool known = false;  // sizes, scope and use are constants
  };
  std::map<uint32_t, uint32_t> components, constants, value_types, spec_ids;
  std::map<uint32_t, Matrix> matrices;
  std::vector<CooperativeMatrixPropertiesKHR> mul_adds;
  for_each_instruction(words, count, [&](const Instruction& in) {
    const uint32_t* o = in.operands;
    if (in.opcode == spv::OpTypeFloat && in.operand_count >= 2)
      components[o[0]] = in.operand_count >= 3 && o[2] == 0 ? kComponentBfloat16  // FPEncoding BFloat16KHR
                         : o[1] == 16                       ? 0u
                         : o[1] == 32                       ? 1u
                                                            : 2u;
    else if (in.opcode == spv::OpTypeInt && in.operand_count >= 3) {
      const uint32_t step = o[1] == 8 ? 0 : o[1] == 16 ? 1 : o[1] == 32 ? 2 : 3;
      components[o[0]] = (o[2] ? 3u : 7u) + step;
    } else if (in.opcode == spv::OpDecorate && in.operand_count >= 3 && o[1] == spv::DecorationSpecId) {
      spec_ids[o[0]] = o[2];
    } else if (in.opcode == spv::OpConstant && in.operand_count == 3) {
      constants[o[1]] = o[2];
    } else if (in.opcode == spv::OpSpecConstant && in.operand_count == 3) {
      // Its value as the kernel is created (a size or scope from spec constants).
      const auto id = spec_ids.find(o[1]);
      const auto given = id == spec_ids.end() ? specs.end() : specs.find(id->second);
      constants[o[1]] = given == specs.end() ? o[2] : given->second;
    } else if (in.opcode == kOpTypeCooperativeMatrixKHR && in.operand_count >= 6) {
      Matrix m;
      m.component = components.count(o[1]) ? components[o[1]] : ~0u;
      m.known =
          constants.count(o[2]) && constants.count(o[3]) && constants.count(o[4]) && constants.count(o[5]);
      if (m.known)
        m.scope = constants[o[2]], m.rows = constants[o[3]], m.cols = constants[o[4]],
        m.use = constants[o[5]];
      matrices[o[0]] = m;
    } else if ((in.opcode == spv::OpLoad || in.opcode == kOpCooperativeMatrixLoadKHR ||
                in.opcode == spv::OpCopyObject || in.opcode == spv::OpPhi ||
                in.opcode == spv::OpFunctionCall || in.opcode == spv::OpFunctionParameter ||
                in.opcode == kOpCooperativeMatrixMulAddKHR) &&
               in.operand_count >= 2) {
      value_types[o[1]] = o[0];
      if (in.opcode == kOpCooperativeMatrixMulAddKHR && in.operand_count >= 5) {
        const auto type = [&](uint32_t id) -> const Matrix* {
          auto t = value_types.find(id);
          auto m = t == value_types.end() ? matrices.end() : matrices.find(t->second);
          return m == matrices.end() ? nullptr : &m->second;
        };
        const Matrix *a = type(o[2]), *b = type(o[3]), *c = type(o[4]);
        const auto result = matrices.find(o[0]);
        if (!a || !b || !c || result == matrices.end() || !a->known || !b->known || !result->second.known)
          return;
        const bool saturating = in.operand_count >= 6 && (o[5] & 0x10);
        mul_adds.push_back({kStructureTypeCooperativeMatrixPropertiesKHR, nullptr, a->rows, b->cols, a->cols,
                            a->component, b->component, c->component, result->second.component, saturating,
                            a->scope});
      }
    }
  });
  const std::string listed = describe_cooperative_matrices(listed_by_device, flexible);
  const char* extensions = flexible.empty() ? "VK_KHR_cooperative_matrix"
                                            : "VK_KHR_cooperative_matrix and VK_NV_cooperative_matrix2";
  // The kernel's work-group size, where a Workgroup-scope matrix is refused.
  const std::string group =
      invocations ? format(" in work-groups of %u", invocations) : std::string(" in work-groups of its size");
  for (const auto& want : mul_adds) {
    bool found = false;
    for (const auto& p : listed_by_device)
      found |= p.MSize == want.MSize && p.NSize == want.NSize && p.KSize == want.KSize &&
               p.AType == want.AType && p.BType == want.BType && p.CType == want.CType &&
               p.ResultType == want.ResultType && p.scope == want.scope &&
               (p.saturatingAccumulation != 0) == (want.saturatingAccumulation != 0);
    for (const auto& p : flexible)
      found |= flexible_fits(p, want.scope) && want.MSize % p.MGranularity == 0 &&
               want.NSize % p.NGranularity == 0 && want.KSize % p.KGranularity == 0 &&
               p.AType == want.AType && p.BType == want.BType && p.CType == want.CType &&
               p.ResultType == want.ResultType &&
               (p.saturatingAccumulation != 0) == (want.saturatingAccumulation != 0);
    if (!found)
      fail(PORTA_ERROR_UNSUPPORTED,
           "%s: the cooperative-matrix multiply-add %s%s is not one %s lists for %s (it lists: %s)",
           where.c_str(), describe(want).c_str(), want.scope == 2 ? group.c_str() : "", device.c_str(),
           extensions, listed.c_str());
  }
  static const char* const uses[] = {"A", "B", "accumulator"};
  for (const auto& [id, m] : matrices) {
    if (!m.known || m.use > 2) continue;
    bool found = false;
    for (const auto& p : listed_by_device) {
      if (p.scope != m.scope) continue;
      if (m.use == 0) found |= p.MSize == m.rows && p.KSize == m.cols && p.AType == m.component;
      if (m.use == 1) found |= p.KSize == m.rows && p.NSize == m.cols && p.BType == m.component;
      if (m.use == 2)
        found |=
            p.MSize == m.rows && p.NSize == m.cols && (p.CType == m.component || p.ResultType == m.component);
    }
    for (const auto& p : flexible) {
      if (!flexible_fits(p, m.scope)) continue;
      if (m.use == 0)
        found |= m.rows % p.MGranularity == 0 && m.cols % p.KGranularity == 0 && p.AType == m.component;
      if (m.use == 1)
        found |= m.rows % p.KGranularity == 0 && m.cols % p.NGranularity == 0 && p.BType == m.component;
      if (m.use == 2)
        found |= m.rows % p.MGranularity == 0 && m.cols % p.NGranularity == 0 &&
                 (p.CType == m.component || p.ResultType == m.component);
    }
    if (!found)
      fail(PORTA_ERROR_UNSUPPORTED,
           "%s: the cooperative matrix %ux%u of %s, use %s, at %s scope%s is in no multiply-add %s lists for "
           "%s "
           "(it lists: %s)",
           where.c_str(), m.rows, m.cols, component_name(m.component).c_str(), uses[m.use],
           scope_name(m.scope).c_str(), m.scope == 2 ? group.c_str() : "", device.c_str(), extensions,
           listed.c_str());
  }
}

}  // namespace porta::vk
