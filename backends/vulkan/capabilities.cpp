#include "capabilities.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <spirv-tools/libspirv.hpp>
#include <spirv/unified1/spirv.hpp>

#include "cooperative_matrix.hpp"
#include "spirv_module.hpp"

namespace porta::vk {
namespace {

using plugin::fail;
using plugin::format;

// Capabilities newer than the SPIR-V headers porta builds against.
constexpr uint32_t kCapabilityCooperativeMatrixKHR = 6022;
constexpr uint32_t kCapabilityBFloat16TypeKHR = 5116;
constexpr uint32_t kCapabilityBFloat16DotProductKHR = 5117;
constexpr uint32_t kCapabilityBFloat16CooperativeMatrixKHR = 5118;

// What one capability needs: `feature` names it as Vulkan does; `met` says
// whether the device has it. A null feature: every Vulkan compute device
// allows it.
struct Need {
  const char* feature = nullptr;
  bool met = true;
};

Need subgroup_operation(const PhysicalDevice& d, VkSubgroupFeatureFlagBits bit, const char* name) {
  const bool compute = (d.subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  return {name, compute && (d.subgroup.supportedOperations & bit) != 0};
}

// The capability's name (for messages) and what it needs; name null: a
// capability porta does not know, which is refused.
struct CapabilityNeed {
  const char* name = nullptr;
  Need need;
};

// What a capability needs, spelled once: the structure and member named in
// the message are the ones read.
#define PORTA_NEED(structure, member, field) \
  Need { #structure "::" #field, f.member.field != 0 }
#define PORTA_NEED_EITHER(structure, member, a, b) \
  Need { #structure "::" #a " or " #b, f.member.a || f.member.b }
#define PORTA_SUBGROUP_NEED(bit)                                                                         \
  subgroup_operation(d, VK_SUBGROUP_FEATURE_##bit##_BIT,                                                 \
                     "VkPhysicalDeviceSubgroupProperties::supportedOperations VK_SUBGROUP_FEATURE_" #bit \
                     "_BIT in compute")

CapabilityNeed capability_need(const PhysicalDevice& d, uint32_t capability) {
  const FeatureChain& f = *d.features;
  switch (capability) {
    // Core Vulkan compute, no feature needed.
    case spv::CapabilityMatrix:
      return {"Matrix", {}};
    case spv::CapabilityShader:
      return {"Shader", {}};
    case spv::CapabilityStorageBufferArrayDynamicIndexing:
      return {"StorageBufferArrayDynamicIndexing", {}};
    case spv::CapabilityUniformBufferArrayDynamicIndexing:
      return {"UniformBufferArrayDynamicIndexing", {}};
    case spv::CapabilityGroupNonUniform:
      return {"GroupNonUniform (basic subgroup operations)", PORTA_SUBGROUP_NEED(BASIC)};
    case spv::CapabilityGroupNonUniformVote:
      return {"GroupNonUniformVote (vote subgroup operations)", PORTA_SUBGROUP_NEED(VOTE)};
    case spv::CapabilityGroupNonUniformArithmetic:
      return {"GroupNonUniformArithmetic (arithmetic subgroup operations)", PORTA_SUBGROUP_NEED(ARITHMETIC)};
    case spv::CapabilityGroupNonUniformBallot:
      return {"GroupNonUniformBallot (ballot subgroup operations)", PORTA_SUBGROUP_NEED(BALLOT)};
    case spv::CapabilityGroupNonUniformShuffle:
      return {"GroupNonUniformShuffle (shuffle subgroup operations)", PORTA_SUBGROUP_NEED(SHUFFLE)};
    case spv::CapabilityGroupNonUniformShuffleRelative:
      return {"GroupNonUniformShuffleRelative (shuffle relative subgroup operations)",
              PORTA_SUBGROUP_NEED(SHUFFLE_RELATIVE)};
    case spv::CapabilityGroupNonUniformClustered:
      return {"GroupNonUniformClustered (clustered subgroup operations)", PORTA_SUBGROUP_NEED(CLUSTERED)};
    case spv::CapabilityGroupNonUniformQuad:
      return {"GroupNonUniformQuad (quad subgroup operations)", PORTA_SUBGROUP_NEED(QUAD)};
    case spv::CapabilitySubgroupBallotKHR:
      return {"SubgroupBallotKHR", {"VK_EXT_shader_subgroup_ballot", d.has("VK_EXT_shader_subgroup_ballot")}};
    case spv::CapabilitySubgroupVoteKHR:
      return {"SubgroupVoteKHR", {"VK_EXT_shader_subgroup_vote", d.has("VK_EXT_shader_subgroup_vote")}};
    // Types.
    case spv::CapabilityFloat64:
      return {"Float64", PORTA_NEED(VkPhysicalDeviceFeatures, core.features, shaderFloat64)};
    case spv::CapabilityInt64:
      return {"Int64", PORTA_NEED(VkPhysicalDeviceFeatures, core.features, shaderInt64)};
    case spv::CapabilityInt16:
      return {"Int16", PORTA_NEED(VkPhysicalDeviceFeatures, core.features, shaderInt16)};
    case spv::CapabilityFloat16:
      return {"Float16", PORTA_NEED(VkPhysicalDeviceVulkan12Features, v12, shaderFloat16)};
    case spv::CapabilityInt8:
      return {"Int8", PORTA_NEED(VkPhysicalDeviceVulkan12Features, v12, shaderInt8)};
    // 8- and 16-bit storage.
    case spv::CapabilityStorageBuffer16BitAccess:
      return {"StorageBuffer16BitAccess",
              PORTA_NEED(VkPhysicalDeviceVulkan11Features, v11, storageBuffer16BitAccess)};
    case spv::CapabilityUniformAndStorageBuffer16BitAccess:
      return {"UniformAndStorageBuffer16BitAccess",
              PORTA_NEED(VkPhysicalDeviceVulkan11Features, v11, uniformAndStorageBuffer16BitAccess)};
    case spv::CapabilityStoragePushConstant16:
      return {"StoragePushConstant16",
              PORTA_NEED(VkPhysicalDeviceVulkan11Features, v11, storagePushConstant16)};
    case spv::CapabilityStorageInputOutput16:
      return {"StorageInputOutput16",
              PORTA_NEED(VkPhysicalDeviceVulkan11Features, v11, storageInputOutput16)};
    case spv::CapabilityStorageBuffer8BitAccess:
      return {"StorageBuffer8BitAccess",
              PORTA_NEED(VkPhysicalDeviceVulkan12Features, v12, storageBuffer8BitAccess)};
    case spv::CapabilityUniformAndStorageBuffer8BitAccess:
      return {"UniformAndStorageBuffer8BitAccess",
              PORTA_NEED(VkPhysicalDeviceVulkan12Features, v12, uniformAndStorageBuffer8BitAccess)};
    case spv::CapabilityStoragePushConstant8:
      return {"StoragePushConstant8",
              PORTA_NEED(VkPhysicalDeviceVulkan12Features, v12, storagePushConstant8)};
    // Atomics.
    case spv::CapabilityInt64Atomics:
      return {"Int64Atomics", PORTA_NEED_EITHER(VkPhysicalDeviceVulkan12Features, v12,
                                                shaderBufferInt64Atomics, shaderSharedInt64Atomics)};
    case spv::CapabilityAtomicFloat32AddEXT:
      return {"AtomicFloat32AddEXT",
              PORTA_NEED_EITHER(VkPhysicalDeviceShaderAtomicFloatFeaturesEXT, atomic_float,
                                shaderBufferFloat32AtomicAdd, shaderSharedFloat32AtomicAdd)};
    case spv::CapabilityAtomicFloat64AddEXT:
      return {"AtomicFloat64AddEXT",
              PORTA_NEED_EITHER(VkPhysicalDeviceShaderAtomicFloatFeaturesEXT, atomic_float,
                                shaderBufferFloat64AtomicAdd, shaderSharedFloat64AtomicAdd)};
    case spv::CapabilityAtomicFloat16AddEXT:
      return {"AtomicFloat16AddEXT",
              PORTA_NEED_EITHER(VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT, atomic_float2,
                                shaderBufferFloat16AtomicAdd, shaderSharedFloat16AtomicAdd)};
    case spv::CapabilityAtomicFloat32MinMaxEXT:
      return {"AtomicFloat32MinMaxEXT",
              PORTA_NEED_EITHER(VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT, atomic_float2,
                                shaderBufferFloat32AtomicMinMax, shaderSharedFloat32AtomicMinMax)};
    case spv::CapabilityAtomicFloat64MinMaxEXT:
      return {"AtomicFloat64MinMaxEXT",
              PORTA_NEED_EITHER(VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT, atomic_float2,
                                shaderBufferFloat64AtomicMinMax, shaderSharedFloat64AtomicMinMax)};
    case spv::CapabilityAtomicFloat16MinMaxEXT:
      return {"AtomicFloat16MinMaxEXT",
              PORTA_NEED_EITHER(VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT, atomic_float2,
                                shaderBufferFloat16AtomicMinMax, shaderSharedFloat16AtomicMinMax)};
    // Memory model, pointers, layouts.
    case spv::CapabilityVulkanMemoryModel:
      return {"VulkanMemoryModel", PORTA_NEED(VkPhysicalDeviceVulkan12Features, v12, vulkanMemoryModel)};
    case spv::CapabilityVulkanMemoryModelDeviceScope:
      return {"VulkanMemoryModelDeviceScope",
              PORTA_NEED(VkPhysicalDeviceVulkan12Features, v12, vulkanMemoryModelDeviceScope)};
    case spv::CapabilityVariablePointersStorageBuffer:
      return {"VariablePointersStorageBuffer",
              PORTA_NEED(VkPhysicalDeviceVulkan11Features, v11, variablePointersStorageBuffer)};
    case spv::CapabilityVariablePointers:
      return {"VariablePointers", PORTA_NEED(VkPhysicalDeviceVulkan11Features, v11, variablePointers)};
    case spv::CapabilityPhysicalStorageBufferAddresses:
      return {"PhysicalStorageBufferAddresses",
              PORTA_NEED(VkPhysicalDeviceVulkan12Features, v12, bufferDeviceAddress)};
    case spv::CapabilityWorkgroupMemoryExplicitLayoutKHR:
      return {"WorkgroupMemoryExplicitLayoutKHR",
              PORTA_NEED(VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR, workgroup_layout,
                         workgroupMemoryExplicitLayout)};
    case spv::CapabilityWorkgroupMemoryExplicitLayout8BitAccessKHR:
      return {"WorkgroupMemoryExplicitLayout8BitAccessKHR",
              PORTA_NEED(VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR, workgroup_layout,
                         workgroupMemoryExplicitLayout8BitAccess)};
    case spv::CapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR:
      return {"WorkgroupMemoryExplicitLayout16BitAccessKHR",
              PORTA_NEED(VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR, workgroup_layout,
                         workgroupMemoryExplicitLayout16BitAccess)};
    // Arrays of buffers indexed by non-uniform values.
    case spv::CapabilityShaderNonUniform:
      return {"ShaderNonUniform", {"Vulkan 1.2", d.api_version >= VK_API_VERSION_1_2}};
    case spv::CapabilityRuntimeDescriptorArray:
      return {"RuntimeDescriptorArray",
              PORTA_NEED(VkPhysicalDeviceVulkan12Features, v12, runtimeDescriptorArray)};
    case spv::CapabilityStorageBufferArrayNonUniformIndexing:
      return {"StorageBufferArrayNonUniformIndexing",
              PORTA_NEED(VkPhysicalDeviceVulkan12Features, v12, shaderStorageBufferArrayNonUniformIndexing)};
    case spv::CapabilityUniformBufferArrayNonUniformIndexing:
      return {"UniformBufferArrayNonUniformIndexing",
              PORTA_NEED(VkPhysicalDeviceVulkan12Features, v12, shaderUniformBufferArrayNonUniformIndexing)};
    // Float controls: the capabilities need the extension (1.2); the
    // execution modes are checked against the properties (check_float_controls).
    case spv::CapabilityDenormPreserve:
      return {"DenormPreserve", {}};
    case spv::CapabilityDenormFlushToZero:
      return {"DenormFlushToZero", {}};
    case spv::CapabilitySignedZeroInfNanPreserve:
      return {"SignedZeroInfNanPreserve", {}};
    case spv::CapabilityRoundingModeRTE:
      return {"RoundingModeRTE", {}};
    case spv::CapabilityRoundingModeRTZ:
      return {"RoundingModeRTZ", {}};
    // Others.
    case spv::CapabilityDotProductInputAll:
      return {"DotProductInputAll",
              PORTA_NEED(VkPhysicalDeviceVulkan13Features, v13, shaderIntegerDotProduct)};
    case spv::CapabilityDotProductInput4x8Bit:
      return {"DotProductInput4x8Bit",
              PORTA_NEED(VkPhysicalDeviceVulkan13Features, v13, shaderIntegerDotProduct)};
    case spv::CapabilityDotProductInput4x8BitPacked:
      return {"DotProductInput4x8BitPacked",
              PORTA_NEED(VkPhysicalDeviceVulkan13Features, v13, shaderIntegerDotProduct)};
    case spv::CapabilityDotProduct:
      return {"DotProduct", PORTA_NEED(VkPhysicalDeviceVulkan13Features, v13, shaderIntegerDotProduct)};
    case spv::CapabilityShaderClockKHR:
      return {"ShaderClockKHR", PORTA_NEED_EITHER(VkPhysicalDeviceShaderClockFeaturesKHR, clock,
                                                  shaderSubgroupClock, shaderDeviceClock)};
    case spv::CapabilityExpectAssumeKHR:
      return {"ExpectAssumeKHR",
              PORTA_NEED(VkPhysicalDeviceShaderExpectAssumeFeaturesKHR, expect_assume, shaderExpectAssume)};
    case kCapabilityCooperativeMatrixKHR:
      return {"CooperativeMatrixKHR", PORTA_NEED(VkPhysicalDeviceCooperativeMatrixFeaturesKHR,
                                                 cooperative_matrix, cooperativeMatrix)};
    case kCapabilityBFloat16TypeKHR:
      return {"BFloat16TypeKHR",
              PORTA_NEED(VkPhysicalDeviceShaderBfloat16FeaturesKHR, bfloat16, shaderBFloat16Type)};
    case kCapabilityBFloat16DotProductKHR:
      return {"BFloat16DotProductKHR",
              PORTA_NEED(VkPhysicalDeviceShaderBfloat16FeaturesKHR, bfloat16, shaderBFloat16DotProduct)};
    case kCapabilityBFloat16CooperativeMatrixKHR:
      return {"BFloat16CooperativeMatrixKHR", PORTA_NEED(VkPhysicalDeviceShaderBfloat16FeaturesKHR, bfloat16,
                                                         shaderBFloat16CooperativeMatrix)};
    default:
      return {};
  }
}
#undef PORTA_NEED
#undef PORTA_NEED_EITHER
#undef PORTA_SUBGROUP_NEED

// A SPIR-V extension: the device extension that allows it, and the Vulkan
// version that made that extension core (0: never).
struct ExtensionNeed {
  const char* spirv;
  const char* device;
  uint32_t core;
};

const ExtensionNeed kExtensions[] = {
    {"SPV_KHR_storage_buffer_storage_class", VK_KHR_STORAGE_BUFFER_STORAGE_CLASS_EXTENSION_NAME,
     VK_API_VERSION_1_1},
    {"SPV_KHR_16bit_storage", VK_KHR_16BIT_STORAGE_EXTENSION_NAME, VK_API_VERSION_1_1},
    {"SPV_KHR_variable_pointers", VK_KHR_VARIABLE_POINTERS_EXTENSION_NAME, VK_API_VERSION_1_1},
    {"SPV_KHR_8bit_storage", VK_KHR_8BIT_STORAGE_EXTENSION_NAME, VK_API_VERSION_1_2},
    {"SPV_KHR_float_controls", VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME, VK_API_VERSION_1_2},
    {"SPV_KHR_vulkan_memory_model", VK_KHR_VULKAN_MEMORY_MODEL_EXTENSION_NAME, VK_API_VERSION_1_2},
    {"SPV_KHR_physical_storage_buffer", VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME, VK_API_VERSION_1_2},
    {"SPV_KHR_integer_dot_product", VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME, VK_API_VERSION_1_3},
    {"SPV_KHR_non_semantic_info", VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME, VK_API_VERSION_1_3},
    {"SPV_KHR_terminate_invocation", VK_KHR_SHADER_TERMINATE_INVOCATION_EXTENSION_NAME, VK_API_VERSION_1_3},
    {"SPV_KHR_shader_ballot", VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, 0},
    {"SPV_KHR_subgroup_vote", VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME, 0},
    {"SPV_EXT_shader_atomic_float_add", VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME, 0},
    {"SPV_EXT_shader_atomic_float_min_max", VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME, 0},
    {"SPV_EXT_shader_atomic_float16_add", VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME, 0},
    {"SPV_KHR_workgroup_memory_explicit_layout", VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME, 0},
    {"SPV_KHR_subgroup_uniform_control_flow", VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME, 0},
    {"SPV_KHR_shader_clock", VK_KHR_SHADER_CLOCK_EXTENSION_NAME, 0},
    {"SPV_KHR_expect_assume", kExpectAssumeExtension, 0},
    {"SPV_KHR_cooperative_matrix", kCooperativeMatrixExtension, 0},
    {"SPV_NV_cooperative_matrix2", kCooperativeMatrix2Extension, 0},
    {"SPV_KHR_bfloat16", kBfloat16Extension, 0},
};

// Float-controls execution modes need the matching property for their width.
void check_float_controls(const PhysicalDevice& d, const Instruction& in, const std::string& where) {
  if (in.operand_count < 3) return;
  const uint32_t mode = in.operands[1], width = in.operands[2];
  const VkPhysicalDeviceVulkan12Properties& p = d.v12_properties;
  auto pick = [width](VkBool32 w16, VkBool32 w32, VkBool32 w64) {
    return width == 16 ? w16 : width == 32 ? w32 : width == 64 ? w64 : VK_FALSE;
  };
  const char* name = nullptr;
  const char* property = nullptr;
  VkBool32 met = VK_FALSE;
  // The execution mode and the property family it needs, spelled once.
#define PORTA_FLOAT_CONTROL(mode_name, family)            \
  case spv::ExecutionMode##mode_name:                     \
    name = #mode_name;                                    \
    property = #family;                                   \
    met = pick(p.family##16, p.family##32, p.family##64); \
    break;
  switch (mode) {
    PORTA_FLOAT_CONTROL(DenormPreserve, shaderDenormPreserveFloat)
    PORTA_FLOAT_CONTROL(DenormFlushToZero, shaderDenormFlushToZeroFloat)
    PORTA_FLOAT_CONTROL(SignedZeroInfNanPreserve, shaderSignedZeroInfNanPreserveFloat)
    PORTA_FLOAT_CONTROL(RoundingModeRTE, shaderRoundingModeRTEFloat)
    PORTA_FLOAT_CONTROL(RoundingModeRTZ, shaderRoundingModeRTZFloat)
#undef PORTA_FLOAT_CONTROL
    default:
      return;
  }
  if (!met)
    fail(
        PORTA_ERROR_UNSUPPORTED,
        "%s: the execution mode %s %u needs VkPhysicalDeviceVulkan12Properties::%s%u, which %s does not have",
        where.c_str(), name, width, property, width, d.label.c_str());
}

bool extension_enabled(const PhysicalDevice& d, const std::set<std::string>& enabled,
                       const ExtensionNeed& e) {
  return (e.core && d.api_version >= e.core) || enabled.count(e.device) != 0;
}

// The SPIR-V versions a device accepts: 1.0 on Vulkan 1.0, up to 1.3 on 1.1
// (1.4 with VK_KHR_spirv_1_4), 1.5 on 1.2, 1.6 on 1.3.
spv_target_env target_env(const PhysicalDevice& d, const std::set<std::string>& enabled,
                          uint32_t* max_version) {
  if (d.api_version >= VK_API_VERSION_1_3) return *max_version = 0x10600, SPV_ENV_VULKAN_1_3;
  if (d.api_version >= VK_API_VERSION_1_2) return *max_version = 0x10500, SPV_ENV_VULKAN_1_2;
  if (enabled.count(VK_KHR_SPIRV_1_4_EXTENSION_NAME))
    return *max_version = 0x10400, SPV_ENV_VULKAN_1_1_SPIRV_1_4;
  return *max_version = 0x10300, SPV_ENV_VULKAN_1_1;
}

// The module as the validation layer sees it on this device: its SPIR-V
// version, and its block layouts with the layout features the device has.
// A layout the device lacks is refused naming the feature; anything else the
// validator rejects is an invalid kernel, with the validator's message.
void check_against_device(const PhysicalDevice& d, const std::set<std::string>& enabled,
                          const std::vector<uint32_t>& spirv, const std::string& where) {
  uint32_t max_version = 0;
  const spv_target_env env = target_env(d, enabled, &max_version);
  const uint32_t version = spirv.size() > 1 ? spirv[1] & 0x00ffff00u : 0;
  if (version > max_version)
    fail(PORTA_ERROR_UNSUPPORTED,
         "%s: the module is SPIR-V %u.%u; %s (Vulkan %u.%u) takes SPIR-V %u.%u at most", where.c_str(),
         version >> 16, (version >> 8) & 0xff, d.label.c_str(), VK_API_VERSION_MAJOR(d.api_version),
         VK_API_VERSION_MINOR(d.api_version), max_version >> 16, (max_version >> 8) & 0xff);
  const FeatureChain& f = *d.features;
  auto validate = [&](bool standard_uniform, bool scalar, std::string* message) {
    spvtools::SpirvTools tools(env);
    tools.SetMessageConsumer(
        [message](spv_message_level_t, const char*, const spv_position_t&, const char* m) {
          if (message && message->empty()) *message = m;
        });
    spvtools::ValidatorOptions options;
    options.SetRelaxBlockLayout(true);  // core from Vulkan 1.1 (VK_KHR_relaxed_block_layout)
    options.SetUniformBufferStandardLayout(standard_uniform);
    options.SetScalarBlockLayout(scalar);
    options.SetWorkgroupScalarBlockLayout(scalar &&
                                          f.workgroup_layout.workgroupMemoryExplicitLayoutScalarBlockLayout);
    return tools.Validate(spirv.data(), spirv.size(), options);
  };
  const bool standard_uniform = f.v12.uniformBufferStandardLayout != 0, scalar = f.v12.scalarBlockLayout != 0;
  std::string message;
  if (validate(standard_uniform, scalar, &message)) return;
  if (!standard_uniform && validate(true, scalar, nullptr))
    fail(PORTA_ERROR_UNSUPPORTED,
         "%s: a uniform block is laid out like a storage block (std430), which needs "
         "VkPhysicalDeviceVulkan12Features::uniformBufferStandardLayout; %s does not have it (%s)",
         where.c_str(), d.label.c_str(), message.c_str());
  if (!scalar && validate(true, true, nullptr))
    fail(PORTA_ERROR_UNSUPPORTED,
         "%s: a block has the scalar layout, which needs "
         "VkPhysicalDeviceVulkan12Features::scalarBlockLayout; %s "
         "does not have it (%s)",
         where.c_str(), d.label.c_str(), message.c_str());
  fail(PORTA_ERROR_INVALID_KERNEL, "%s: the module is not valid SPIR-V for %s: %s", where.c_str(),
       d.label.c_str(), message.c_str());
}

}  // namespace

const std::vector<const char*>& wanted_device_extensions() {
  static const std::vector<const char*> list = [] {
    std::vector<const char*> out = {VK_KHR_SPIRV_1_4_EXTENSION_NAME};  // SPIR-V 1.4 modules on Vulkan 1.1
    for (const ExtensionNeed& e : kExtensions)
      if (std::find_if(out.begin(), out.end(),
                       [&](const char* n) { return std::strcmp(n, e.device) == 0; }) == out.end())
        out.push_back(e.device);
    return out;
  }();
  return list;
}

std::vector<uint32_t> prepare_module(const PhysicalDevice& d, const std::set<std::string>& enabled,
                                     const uint32_t* words, size_t count, const std::string& kernel,
                                     uint32_t invocations, const std::map<uint32_t, uint32_t>& specs) {
  const std::string where = format("vulkan: %s: kernel '%s'", d.label.c_str(), kernel.c_str());
  // What is there to take out where the device lacks it.
  const ExtensionNeed* expect_assume = nullptr;
  for (const ExtensionNeed& e : kExtensions)
    if (std::strcmp(e.spirv, "SPV_KHR_expect_assume") == 0) expect_assume = &e;
  const bool strip_expect_assume =
      !extension_enabled(d, enabled, *expect_assume) || !d.features->expect_assume.shaderExpectAssume;
  const bool strip_non_semantic =
      d.api_version < VK_API_VERSION_1_3 && !enabled.count(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME);
  std::set<uint32_t> non_semantic_sets;  // OpExtInstImport "NonSemantic.*" results
  bool cooperative_matrix = false;

  for_each_instruction(words, count, [&](const Instruction& in) {
    if (in.opcode == spv::OpCapability && in.operand_count >= 1) {
      const uint32_t capability = in.operands[0];
      cooperative_matrix |= capability == kCapabilityCooperativeMatrixKHR;
      if (capability == spv::CapabilityExpectAssumeKHR && strip_expect_assume) return;
      const CapabilityNeed c = capability_need(d, capability);
      if (!c.name)
        fail(PORTA_ERROR_UNSUPPORTED,
             "%s: the SPIR-V capability %u is not one porta's Vulkan backend can enable", where.c_str(),
             capability);
      if (!c.need.met)
        fail(PORTA_ERROR_UNSUPPORTED, "%s: the SPIR-V capability %s needs %s, which %s does not have",
             where.c_str(), c.name, c.need.feature, d.label.c_str());
    } else if (in.opcode == spv::OpExtension) {
      const std::string name = literal_string(in.operands, in.operand_count);
      const ExtensionNeed* need = nullptr;
      for (const ExtensionNeed& e : kExtensions)
        if (name == e.spirv) need = &e;
      if (need == expect_assume && strip_expect_assume) return;
      if (name == "SPV_KHR_non_semantic_info" && strip_non_semantic) return;
      if (!need)
        fail(PORTA_ERROR_UNSUPPORTED,
             "%s: the SPIR-V extension %s is not one porta's Vulkan backend can enable", where.c_str(),
             name.c_str());
      if (!extension_enabled(d, enabled, *need))
        fail(PORTA_ERROR_UNSUPPORTED,
             "%s: the SPIR-V extension %s needs the device extension %s, which %s does not have",
             where.c_str(), name.c_str(), need->device, d.label.c_str());
    } else if (in.opcode == spv::OpExecutionMode) {
      check_float_controls(d, in, where);
    } else if (in.opcode == spv::OpExtInstImport && strip_non_semantic) {
      if (literal_string(in.operands + 1, in.operand_count - 1).rfind("NonSemantic.", 0) == 0)
        non_semantic_sets.insert(in.operands[0]);
    }
  });

  if (cooperative_matrix)
    check_cooperative_matrices(d.cooperative_matrices, d.label, words, count, where, d.flexible_matrices,
                               invocations, specs);

  // Legalise: the instructions of extensions the device did not enable, where
  // taking them out changes nothing the kernel computes. OpExpectKHR gives its
  // value (an OpCopyObject of it); OpAssumeTrueKHR and non-semantic
  // instructions (debug information) go.
  std::vector<uint32_t> out(words, words + std::min<size_t>(count, 5));
  out.reserve(count);
  size_t copied_to = std::min<size_t>(count, 5);
  auto keep_until = [&](size_t at) { out.insert(out.end(), words + copied_to, words + at); };
  for_each_instruction(words, count, [&](const Instruction& in) {
    const uint32_t length = in.operand_count + 1;
    bool drop = false;
    if (strip_expect_assume) {
      if (in.opcode == spv::OpCapability && in.operands[0] == spv::CapabilityExpectAssumeKHR) drop = true;
      if (in.opcode == spv::OpExtension &&
          literal_string(in.operands, in.operand_count) == "SPV_KHR_expect_assume")
        drop = true;
      if (in.opcode == spv::OpAssumeTrueKHR) drop = true;
      if (in.opcode == spv::OpExpectKHR && in.operand_count == 4) {
        keep_until(in.at);
        out.push_back((4u << 16) | spv::OpCopyObject);
        out.insert(out.end(), in.operands, in.operands + 3);  // result type, result, value
        copied_to = in.at + length;
        return;
      }
    }
    if (strip_non_semantic) {
      if (in.opcode == spv::OpExtension &&
          literal_string(in.operands, in.operand_count) == "SPV_KHR_non_semantic_info")
        drop = true;
      if (in.opcode == spv::OpExtInstImport && non_semantic_sets.count(in.operands[0])) drop = true;
      if (in.opcode == spv::OpExtInst && in.operand_count >= 3 && non_semantic_sets.count(in.operands[2]))
        drop = true;
    }
    if (!drop) return;
    keep_until(in.at);
    copied_to = in.at + length;
  });
  keep_until(count);
  out = rewrite_module(out, {d.rewrite_remainders, d.rewrite_fmix});
  // The SPIRV-Tools porta links predate SPV_KHR_cooperative_matrix: such a
  // module was validated in its lowered form by the translator, and the driver
  // checks the rest.
  if (!cooperative_matrix) check_against_device(d, enabled, out, where);
  return out;
}

}  // namespace porta::vk
