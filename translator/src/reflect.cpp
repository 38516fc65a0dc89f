// SPIR-V → KernelSignature with SPIRV-Cross's reflection API.
#include <algorithm>
#include <cstring>
#include <spirv_cross.hpp>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bfloat16_lowering.hpp"
#include "porta/porta.h"
#include "porta_translator/translator.hpp"
#include "reflect_util.hpp"
#include "spirv_words.hpp"

namespace porta::translator {
namespace {

using spirv_cross::SPIRType;


// The array lengths of a Workgroup variable may be spec constants: reflection
// reads them from a specialised copy where they are plain constants.
uint32_t array_length(const spirv_cross::Compiler& compiler, const SPIRType& type, size_t dimension) {
  if (type.array_size_literal[dimension]) return type.array[dimension];
  return compiler.get_constant(type.array[dimension]).scalar();
}

// Natural (std430-like) size and alignment of a Workgroup variable's type:
// what a device allocates for it.
void natural_layout(const spirv_cross::Compiler& compiler, const SPIRType& type, uint64_t& size,
                    uint64_t& align) {
  if (!type.array.empty()) {
    // The outermost dimension only: parent_type is the array of the others.
    const uint64_t count = array_length(compiler, type, type.array.size() - 1);
    const SPIRType& element = compiler.get_type(type.parent_type);
    uint64_t element_size = 0, element_align = 1;
    natural_layout(compiler, element, element_size, element_align);
    const uint64_t stride = (element_size + element_align - 1) / element_align * element_align;
    size = stride * count;
    align = element_align;
    return;
  }
  if (type.basetype == SPIRType::Struct) {
    uint64_t offset = 0, max_align = 1;
    for (uint32_t member : type.member_types) {
      uint64_t member_size = 0, member_align = 1;
      natural_layout(compiler, compiler.get_type(member), member_size, member_align);
      offset = (offset + member_align - 1) / member_align * member_align + member_size;
      max_align = std::max(max_align, member_align);
    }
    size = (offset + max_align - 1) / max_align * max_align;
    align = max_align;
    return;
  }
  const uint64_t component = type.basetype == SPIRType::Boolean ? 4 : type.width / 8;
  size = component * type.vecsize * type.columns;
  align = component * (type.vecsize == 3 ? 4 : type.vecsize);
}

uint64_t features_of(const std::vector<uint32_t>& spirv, const spirv_cross::Compiler& compiler) {
  // What each capability asks of a device.
  static constexpr struct {
    spv::Capability capability;
    uint64_t feature;
  } kCapabilityFeatures[] = {
      {spv::CapabilityFloat16, PORTA_FEATURE_FP16},
      {spv::CapabilityFloat64, PORTA_FEATURE_FP64},
      {spv::CapabilityInt64, PORTA_FEATURE_INT64},
      {spv::CapabilityInt16, PORTA_FEATURE_INT16},
      {spv::CapabilityInt8, PORTA_FEATURE_INT8},
      {spv::CapabilityStorageBuffer16BitAccess, PORTA_FEATURE_STORAGE_16BIT},
      {spv::CapabilityUniformAndStorageBuffer16BitAccess, PORTA_FEATURE_STORAGE_16BIT},
      {spv::CapabilityStoragePushConstant16, PORTA_FEATURE_STORAGE_16BIT},
      {spv::CapabilityStorageBuffer8BitAccess, PORTA_FEATURE_STORAGE_8BIT},
      {spv::CapabilityUniformAndStorageBuffer8BitAccess, PORTA_FEATURE_STORAGE_8BIT},
      {spv::CapabilityStoragePushConstant8, PORTA_FEATURE_STORAGE_8BIT},
      {spv::CapabilitySubgroupBallotKHR, PORTA_FEATURE_SUBGROUPS},
      {spv::CapabilitySubgroupVoteKHR, PORTA_FEATURE_SUBGROUPS},
      {spv::CapabilityGroupNonUniformClustered, PORTA_FEATURE_SUBGROUP_CLUSTERED},
      {spv::CapabilityAtomicFloat32AddEXT, PORTA_FEATURE_ATOMIC_FLOAT32},
      {spv::CapabilityInt64Atomics, PORTA_FEATURE_ATOMIC_INT64},
  };
  uint64_t features = 0;
  for (spv::Capability capability : compiler.get_declared_capabilities()) {
    if (static_cast<uint32_t>(capability) == kBFloat16TypeKHR) features |= PORTA_FEATURE_BF16;
    if (is_group_non_uniform(capability)) features |= PORTA_FEATURE_SUBGROUPS;
    for (const auto& entry : kCapabilityFeatures)
      if (entry.capability == capability) features |= entry.feature;
  }
  // 32-bit integer atomics need no capability in SPIR-V, but not every device
  // has them on every memory: look for the instructions.
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t*, uint32_t) {
    if (opcode >= spv::OpAtomicLoad && opcode <= spv::OpAtomicXor) features |= PORTA_FEATURE_ATOMIC_INT32;
  });
  return features;
}

[[noreturn]] void reject_resource(const spirv_cross::Compiler& compiler,
                                  const spirv_cross::Resource& resource, const char* what,
                                  const char* advice) {
  std::string name = compiler.get_name(resource.id);
  if (name.empty()) name = resource.name;
  const uint32_t set = compiler.get_decoration(resource.id, spv::DecorationDescriptorSet);
  const uint32_t binding = compiler.get_decoration(resource.id, spv::DecorationBinding);
  throw Error(Error::Kind::UnsupportedFeature, std::string(what) + " '" + name + "' (set " +
                                                   std::to_string(set) + ", binding " +
                                                   std::to_string(binding) + ") is not supported: " + advice);
}

// Reflection needs to walk every variable, which Compiler keeps protected.
class ModuleWalker : public spirv_cross::Compiler {
 public:
  using Compiler::Compiler;
  template <class Visit>
  void for_each_variable(Visit&& visit) {
    ir.for_each_typed_id<spirv_cross::SPIRVariable>(visit);
  }
};

// The bytes of every variable of the given storage classes, laid out one
// after another at their natural alignment.
uint64_t variable_bytes(ModuleWalker& compiler, std::initializer_list<spv::StorageClass> storage) {
  uint64_t total = 0;
  compiler.for_each_variable([&](uint32_t, const spirv_cross::SPIRVariable& var) {
    if (std::find(storage.begin(), storage.end(), var.storage) == storage.end()) return;
    const SPIRType& pointer = compiler.get_type(var.basetype);
    if (var.parameter || !pointer.pointer) return;  // a function's parameter: its caller's variable
    const SPIRType& type = compiler.get_type(pointer.parent_type);
    uint64_t size = 8, align = 8;  // a pointer
    if (!type.pointer) natural_layout(compiler, type, size, align);
    total = (total + align - 1) / align * align + size;
  });
  return total;
}

// The access a block's decorations allow.
Access block_access(const spirv_cross::Compiler& compiler, uint32_t variable) {
  const spirv_cross::Bitset flags = compiler.get_buffer_block_flags(variable);
  const bool no_write = flags.get(spv::DecorationNonWritable);
  const bool no_read = flags.get(spv::DecorationNonReadable);
  if (no_write && no_read) return Access::ReadWrite;  // neither readable nor writable: unconstrained
  return no_write ? Access::Read : no_read ? Access::Write : Access::ReadWrite;
}

// Every storage and uniform block as kernel parameters, in (set, binding,
// array element) order. Blocks declared at one (set, binding) are views of
// one parameter: its access is what all of them do, its min_size the
// largest fixed part.
std::vector<BufferBinding> reflect_buffers(const spirv_cross::Compiler& compiler,
                                           const spirv_cross::ShaderResources& resources) {
  struct View {
    BufferBinding binding;
    uint32_t count = 1;  // elements of an array of blocks
  };
  std::vector<View> views;
  auto add = [&](const spirv_cross::Resource& resource, BufferKind kind) {
    View view;
    BufferBinding& b = view.binding;
    b.set = compiler.get_decoration(resource.id, spv::DecorationDescriptorSet);
    b.binding = compiler.get_decoration(resource.id, spv::DecorationBinding);
    b.kind = kind;
    b.name = compiler.get_name(resource.id);
    if (b.name.empty()) b.name = compiler.get_name(resource.base_type_id);
    const std::string where = std::string(kind == BufferKind::Uniform ? "uniform" : "storage") + " buffer '" +
                              b.name + "' (set " + std::to_string(b.set) + ", binding " +
                              std::to_string(b.binding) + ")";
    const SPIRType& type = compiler.get_type(resource.type_id);
    if (type.array.size() > 1)
      throw Error(Error::Kind::UnsupportedFeature,
                  where + " is an array of arrays of blocks; porta takes one-dimensional arrays of buffers");
    if (type.array.size() == 1) {
      if (!type.array_size_literal[0])
        throw Error(Error::Kind::UnsupportedFeature,
                    where + " is an array whose size is a specialization constant; give it a literal size");
      if (type.array[0] == 0)
        throw Error(Error::Kind::UnsupportedFeature,
                    where + " is a runtime-sized array of blocks (descriptor indexing); give it a size");
      view.count = type.array[0];
    }
    b.access = kind == BufferKind::Uniform ? Access::Read : block_access(compiler, resource.id);
    const SPIRType& block = compiler.get_type(resource.base_type_id);
    if (!block.member_types.empty()) b.min_size = compiler.get_declared_struct_size(block);
    views.push_back(view);
  };
  for (const spirv_cross::Resource& resource : resources.storage_buffers) add(resource, BufferKind::Storage);
  for (const spirv_cross::Resource& resource : resources.uniform_buffers) add(resource, BufferKind::Uniform);
  std::stable_sort(views.begin(), views.end(), [](const View& a, const View& b) {
    return std::pair(a.binding.set, a.binding.binding) < std::pair(b.binding.set, b.binding.binding);
  });

  std::vector<BufferBinding> buffers;
  for (size_t i = 0; i < views.size();) {
    View merged = views[i];
    size_t j = i + 1;
    for (; j < views.size() && views[j].binding.set == merged.binding.set &&
           views[j].binding.binding == merged.binding.binding;
         ++j) {
      const View& other = views[j];
      const std::string pair = "'" + merged.binding.name + "' and '" + other.binding.name + "' (set " +
                               std::to_string(merged.binding.set) + ", binding " +
                               std::to_string(merged.binding.binding) + ")";
      if (other.binding.kind != merged.binding.kind)
        throw Error(Error::Kind::InvalidSpirv,
                    "blocks " + pair + " alias one binding but one is a uniform and one a storage buffer");
      if (other.count != merged.count)
        throw Error(Error::Kind::InvalidSpirv, "blocks " + pair + " alias one binding with array sizes " +
                                                   std::to_string(merged.count) + " and " +
                                                   std::to_string(other.count));
      merged.binding.access = static_cast<Access>(static_cast<uint32_t>(merged.binding.access) |
                                                  static_cast<uint32_t>(other.binding.access));
      merged.binding.min_size = std::max(merged.binding.min_size, other.binding.min_size);
    }
    for (uint32_t element = 0; element < merged.count; ++element) {
      BufferBinding b = merged.binding;
      b.array_index = element;
      buffers.push_back(b);
    }
    i = j;
  }
  return buffers;
}

}  // namespace

std::vector<SpecConstant> spec_constants(const spirv_cross::Compiler& compiler) {
  std::vector<SpecConstant> out;
  for (const spirv_cross::SpecializationConstant& spec : compiler.get_specialization_constants()) {
    const spirv_cross::SPIRConstant& constant = compiler.get_constant(spec.id);
    const SPIRType& type = compiler.get_type(constant.constant_type);
    SpecConstant c;
    c.id = spec.constant_id;
    c.name = compiler.get_name(spec.id);
    if (!scalar_spelling(type.basetype) || type.vecsize != 1 || type.columns != 1)
      throw Error(Error::Kind::UnsupportedFeature,
                  "spec constant '" + c.name + "' (constant_id " + std::to_string(c.id) + ") has type " +
                      glsl_type_name(compiler, type) + "; porta supports bool, integer and float scalars");
    c.type = scalar_type(type.basetype);
    c.width = c.type == ScalarType::Bool ? 4 : type.width / 8;
    // SPIRV-Cross keeps a narrow constant as its SPIR-V literal word (signed
    // ones sign-extended): keep the type's own bits.
    const uint64_t mask = c.width == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * c.width)) - 1;
    c.default_bits = (c.width == 8 ? constant.scalar_u64() : constant.scalar()) & mask;
    out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const SpecConstant& a, const SpecConstant& b) { return a.id < b.id; });
  return out;
}

ScalarType scalar_type(SPIRType::BaseType base) {
  switch (base) {
    case SPIRType::Boolean:
      return ScalarType::Bool;
    case SPIRType::SByte:
    case SPIRType::Short:
    case SPIRType::Int:
    case SPIRType::Int64:
      return ScalarType::Int;
    case SPIRType::UByte:
    case SPIRType::UShort:
    case SPIRType::UInt:
    case SPIRType::UInt64:
      return ScalarType::UInt;
    default:
      return ScalarType::Float;
  }
}

const ScalarSpelling* scalar_spelling(SPIRType::BaseType base) {
  static constexpr ScalarSpelling kScalars[] = {
      {SPIRType::Boolean, "bool", "bvec", "bool"},       {SPIRType::SByte, "int8_t", nullptr, "char"},
      {SPIRType::UByte, "uint8_t", nullptr, "uchar"},    {SPIRType::Short, "int16_t", nullptr, "short"},
      {SPIRType::UShort, "uint16_t", nullptr, "ushort"}, {SPIRType::Int, "int", "ivec", "int"},
      {SPIRType::UInt, "uint", "uvec", "uint"},          {SPIRType::Int64, "int64_t", "i64vec", "long"},
      {SPIRType::UInt64, "uint64_t", "u64vec", "ulong"}, {SPIRType::Half, "float16_t", "f16vec", nullptr},
      {SPIRType::Float, "float", "vec", "float"},        {SPIRType::Double, "double", "dvec", "double"},
  };
  for (const ScalarSpelling& scalar : kScalars)
    if (scalar.base == base) return &scalar;
  return nullptr;
}

std::string glsl_type_name(const spirv_cross::Compiler& compiler, const SPIRType& type) {
  std::string name;
  if (type.basetype == SPIRType::Struct) {
    name = compiler.get_name(type.self);
    if (name.empty()) name = "struct";
  } else if (type.columns > 1) {
    // Appended piecewise: "x" + std::string trips GCC 12's -Wrestrict false positive.
    name = type.basetype == SPIRType::Double ? "dmat" : "mat";
    name += std::to_string(type.columns);
    if (type.columns != type.vecsize) (name += 'x') += std::to_string(type.vecsize);
  } else {
    const ScalarSpelling* scalar = scalar_spelling(type.basetype);
    name = scalar ? scalar->glsl : "?";
    if (type.vecsize > 1) {
      if (scalar && scalar->glsl_vector_prefix)
        name = scalar->glsl_vector_prefix;
      else
        name += "vec";
      name += std::to_string(type.vecsize);
    }
  }
  for (size_t i = type.array.size(); i-- > 0;) {
    // Appended piecewise: "[" + std::string trips GCC 12's -Wrestrict false positive.
    name += '[';
    if (!type.array_size_literal[i])
      name += compiler.get_name(type.array[i]);
    else if (type.array[i] != 0)
      name += std::to_string(type.array[i]);
    name += ']';
  }
  return name;
}

namespace {

// SPIRV-Cross builds every OpConstantNull element by element while it parses:
// a null constant of a huge array would allocate gigabytes before any check
// could refuse the module. Its size is known from the types alone.
void refuse_huge_null_constants(const std::vector<uint32_t>& spirv) {
  constexpr uint64_t kMostElements = uint64_t(1) << 24;
  // 32-bit constants' and spec constants' values; the scalars a type holds.
  std::unordered_map<uint32_t, uint64_t> value, elements;
  auto count = [&](uint32_t type) { return elements.count(type) ? elements[type] : 1; };
  auto capped = [&](uint64_t a, uint64_t b) { return std::min(a * b, kMostElements + 1); };
  for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* o, uint32_t n) {
    if ((opcode == spv::OpConstant || opcode == spv::OpSpecConstant) && n >= 3) value[o[1]] = o[2];
    if ((opcode == spv::OpTypeVector || opcode == spv::OpTypeMatrix) && n >= 3)
      elements[o[0]] = capped(count(o[1]), o[2]);
    if (opcode == spv::OpTypeArray && n >= 3)
      elements[o[0]] = capped(count(o[1]), value.count(o[2]) ? value[o[2]] : 1);
    if (opcode == spv::OpTypeStruct && n >= 1) {
      uint64_t sum = 0;
      for (uint32_t i = 1; i < n; ++i) sum = std::min(sum + count(o[i]), kMostElements + 1);
      elements[o[0]] = sum;
    }
    if (opcode == spv::OpConstantNull && n >= 2 && count(o[0]) > kMostElements)
      throw Error(Error::Kind::InvalidSpirv, "OpConstantNull %" + std::to_string(o[1]) +
                                                 " is a constant of more than 2^24 scalars; refused");
  });
}

}  // namespace

KernelSignature reflect(const std::vector<uint32_t>& spirv) { return reflect(spirv, {}); }

KernelSignature reflect(const std::vector<uint32_t>& spirv, const std::vector<SpecValue>& specs) {
  // SPIRV-Cross cannot read cooperative matrices, nor the SPIRV-Tools that
  // apply spec constants bfloat16; their lowering has the same interface.
  const bool matrices = uses_cooperative_matrix(spirv);
  if (matrices || uses_bfloat16(spirv)) {
    KernelSignature lowered = reflect(lower_cooperative_matrix_interface(spirv), specs);
    if (matrices) lowered.required_features |= PORTA_FEATURE_COOPERATIVE_MATRIX;
    // The interface's lowering declares bfloat16 as a plain 16-bit float.
    for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t* operands, uint32_t count) {
      if (opcode == spv::OpCapability && count == 1 && operands[0] == kBFloat16TypeKHR)
        lowered.required_features |= PORTA_FEATURE_BF16;
    });
    return lowered;
  }
  KernelSignature signature;
  try {
    if (spirv.empty() || spirv[0] != kSpirvMagic) (void)spirv_from_bytes(spirv.data(), spirv.size() * 4);
    refuse_huge_null_constants(spirv);
    spirv_cross::Compiler compiler(spirv);

    const auto entry_points = compiler.get_entry_points_and_stages();
    if (entry_points.size() != 1 || entry_points[0].execution_model != spv::ExecutionModelGLCompute) {
      std::string found;
      for (const auto& entry : entry_points)
        found += (found.empty() ? "" : ", ") + entry.name +
                 (entry.execution_model == spv::ExecutionModelGLCompute ? " (compute)" : " (not compute)");
      throw Error(Error::Kind::UnsupportedFeature,
                  "a kernel needs exactly one GLCompute entry point; the module has " +
                      std::to_string(entry_points.size()) + (found.empty() ? "" : ": " + found));
    }
    compiler.set_entry_point(entry_points[0].name, entry_points[0].execution_model);
    signature.entry_point = entry_points[0].name;

    const spirv_cross::ShaderResources resources = compiler.get_shader_resources();
    const char* const buffers_only = "porta kernels take storage and uniform buffers only";
    const struct {
      const spirv_cross::SmallVector<spirv_cross::Resource>& list;
      const char* what;
      const char* advice;
    } refused[] = {
        {resources.sampled_images, "image", buffers_only},
        {resources.separate_images, "image", buffers_only},
        {resources.storage_images, "storage image", buffers_only},
        {resources.separate_samplers, "sampler", buffers_only},
        {resources.atomic_counters, "atomic counter", "use atomics on a storage buffer instead"},
        {resources.acceleration_structures, "acceleration structure", buffers_only},
    };
    for (const auto& resource : refused)
      if (!resource.list.empty()) reject_resource(compiler, resource.list[0], resource.what, resource.advice);

    signature.buffers = reflect_buffers(compiler, resources);
    if (resources.push_constant_buffers.size() > 1)
      throw Error(Error::Kind::InvalidSpirv, "more than one push-constant block");
    if (!resources.push_constant_buffers.empty()) {
      const SPIRType& block = compiler.get_type(resources.push_constant_buffers[0].base_type_id);
      for (uint32_t i = 0; i < block.member_types.size(); ++i) {
        PushConstantMember member;
        member.name = compiler.get_member_name(block.self, i);
        const SPIRType& member_type = compiler.get_type(block.member_types[i]);
        member.type = glsl_type_name(compiler, member_type);
        member.offset = compiler.type_struct_member_offset(block, i);
        if (!member_type.array.empty() && member_type.array.back() == 0 &&
            member_type.array_size_literal.back())
          throw Error(Error::Kind::InvalidSpirv,
                      "push-constant member '" + member.name + "' is a runtime array");
        member.size = static_cast<uint32_t>(compiler.get_declared_struct_member_size(block, i));
        signature.push_constants.push_back(member);
      }
      signature.push_constant_size = static_cast<uint32_t>(compiler.get_declared_struct_size(block));
    }

    signature.spec_constants = spec_constants(compiler);

    const spirv_cross::SPIREntryPoint& entry =
        compiler.get_entry_point(signature.entry_point, spv::ExecutionModelGLCompute);
    signature.local_size[0] = entry.workgroup_size.x;
    signature.local_size[1] = entry.workgroup_size.y;
    signature.local_size[2] = entry.workgroup_size.z;
    spirv_cross::SpecializationConstant dims[3];
    compiler.get_work_group_size_specialization_constants(dims[0], dims[1], dims[2]);
    for (int d = 0; d < 3; ++d) {
      if (dims[d].id == spirv_cross::ID(0)) continue;
      signature.local_size_spec_id[d] = static_cast<int32_t>(dims[d].constant_id);
      for (SpecConstant& spec : signature.spec_constants)
        if (spec.id == dims[d].constant_id && spec.name.empty())
          spec.name = std::string("local_size_") + "xyz"[d];
      signature.local_size[d] = compiler.get_constant(dims[d].id).scalar();
    }

    for_each_instruction(spirv, [&](uint32_t opcode, const uint32_t*, uint32_t) {
      if (opcode == spv::OpControlBarrier) signature.uses_barrier = true;
    });
    signature.required_features = features_of(spirv, compiler);

    // Shared sizes may depend on spec constants (`shared float t[gl_WorkGroupSize.x]`):
    // measure them on the specialised module.
    const std::vector<uint32_t> specialised = specialize(spirv, specs);
    ModuleWalker walker(specialised);
    signature.shared_memory_bytes =
        static_cast<uint32_t>(std::min<uint64_t>(variable_bytes(walker, {spv::StorageClassWorkgroup}), UINT32_MAX));
    signature.private_memory_bytes = variable_bytes(walker, {spv::StorageClassFunction, spv::StorageClassPrivate});
  } catch (const spirv_cross::CompilerError& e) {
    throw Error(Error::Kind::InvalidSpirv, std::string("SPIR-V reflection failed: ") + e.what());
  }
  if (!specs.empty()) {
    uint32_t size[3];
    resolve_local_size(signature, specs, size);
    std::memcpy(signature.local_size, size, sizeof(size));
  }
  return signature;
}

void resolve_local_size(const KernelSignature& signature, const std::vector<SpecValue>& specs,
                        uint32_t out[3]) {
  for (int d = 0; d < 3; ++d) {
    out[d] = signature.local_size[d];
    if (signature.local_size_spec_id[d] < 0) continue;
    for (const SpecValue& spec : specs)
      if (spec.id == static_cast<uint32_t>(signature.local_size_spec_id[d]))
        out[d] = static_cast<uint32_t>(spec.bits);
  }
}

}  // namespace porta::translator
