#include "capabilities.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <spirv-tools/libspirv.hpp>
#include <spirv/unified1/spirv.hpp>

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

CapabilityNeed capability_need(const PhysicalDevice& d, uint32_t capability) {
  const FeatureChain& f = *d.features;
  const VkPhysicalDeviceFeatures& core = f.core.features;
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
      return {"GroupNonUniform (basic subgroup operations)",
              subgroup_operation(d, VK_SUBGROUP_FEATURE_BASIC_BIT,
                                 "VkPhysicalDeviceSubgroupProperties::supportedOperations "
                                 "VK_SUBGROUP_FEATURE_BASIC_BIT in compute")};
    case spv::CapabilityGroupNonUniformVote:
      return {"GroupNonUniformVote (vote subgroup operations)",
              subgroup_operation(d, VK_SUBGROUP_FEATURE_VOTE_BIT,
                                 "VkPhysicalDeviceSubgroupProperties::supportedOperations "
                                 "VK_SUBGROUP_FEATURE_VOTE_BIT in compute")};
    case spv::CapabilityGroupNonUniformArithmetic:
      return {"GroupNonUniformArithmetic (arithmetic subgroup operations)",
              subgroup_operation(d, VK_SUBGROUP_FEATURE_ARITHMETIC_BIT,
                                 "VkPhysicalDeviceSubgroupProperties::supportedOperations "
                                 "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT in compute")};
    case spv::CapabilityGroupNonUniformBallot:
      return {"GroupNonUniformBallot (ballot subgroup operations)",
              subgroup_operation(d, VK_SUBGROUP_FEATURE_BALLOT_BIT,
                                 "VkPhysicalDeviceSubgroupProperties::supportedOperations "
                                 "VK_SUBGROUP_FEATURE_BALLOT_BIT in compute")};
    case spv::CapabilityGroupNonUniformShuffle:
      return {"GroupNonUniformShuffle (shuffle subgroup operations)",
              subgroup_operation(d, VK_SUBGROUP_FEATURE_SHUFFLE_BIT,
                                 "VkPhysicalDeviceSubgroupProperties::supportedOperations "
                                 "VK_SUBGROUP_FEATURE_SHUFFLE_BIT in compute")};
    case spv::CapabilityGroupNonUniformShuffleRelative:
      return {"GroupNonUniformShuffleRelative (shuffle relative subgroup operations)",
              subgroup_operation(d, VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT,
                                 "VkPhysicalDeviceSubgroupProperties::supportedOperations "
                                 "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT in compute")};
    case spv::CapabilityGroupNonUniformClustered:
      return {"GroupNonUniformClustered (clustered subgroup operations)",
              subgroup_operation(d, VK_SUBGROUP_FEATURE_CLUSTERED_BIT,
                                 "VkPhysicalDeviceSubgroupProperties::supportedOperations "
                                 "VK_SUBGROUP_FEATURE_CLUSTERED_BIT in compute")};
    case spv::CapabilityGroupNonUniformQuad:
      return {"GroupNonUniformQuad (quad subgroup operations)",
              subgroup_operation(d, VK_SUBGROUP_FEATURE_QUAD_BIT,
                                 "VkPhysicalDeviceSubgroupProperties::supportedOperations "
                                 "VK_SUBGROUP_FEATURE_QUAD_BIT in compute")};
    case spv::CapabilitySubgroupBallotKHR:
      return {"SubgroupBallotKHR", {"VK_EXT_shader_subgroup_ballot", d.has("VK_EXT_shader_subgroup_ballot")}};
    case spv::CapabilitySubgroupVoteKHR:
      return {"SubgroupVoteKHR", {"VK_EXT_shader_subgroup_vote", d.has("VK_EXT_shader_subgroup_vote")}};
    // Types.
    case spv::CapabilityFloat64:
      return {"Float64", {"VkPhysicalDeviceFeatures::shaderFloat64", core.shaderFloat64 != 0}};
    case spv::CapabilityInt64:
      return {"Int64", {"VkPhysicalDeviceFeatures::shaderInt64", core.shaderInt64 != 0}};
    case spv::CapabilityInt16:
      return {"Int16", {"VkPhysicalDeviceFeatures::shaderInt16", core.shaderInt16 != 0}};
    case spv::CapabilityFloat16:
      return {"Float16", {"VkPhysicalDeviceVulkan12Features::shaderFloat16", f.v12.shaderFloat16 != 0}};
    case spv::CapabilityInt8:
      return {"Int8", {"VkPhysicalDeviceVulkan12Features::shaderInt8", f.v12.shaderInt8 != 0}};
    // 8- and 16-bit storage.
    case spv::CapabilityStorageBuffer16BitAccess:
      return {"StorageBuffer16BitAccess",
              {"VkPhysicalDeviceVulkan11Features::storageBuffer16BitAccess",
               f.v11.storageBuffer16BitAccess != 0}};
    case spv::CapabilityUniformAndStorageBuffer16BitAccess:
      return {"UniformAndStorageBuffer16BitAccess",
              {"VkPhysicalDeviceVulkan11Features::uniformAndStorageBuffer16BitAccess",
               f.v11.uniformAndStorageBuffer16BitAccess != 0}};
    case spv::CapabilityStoragePushConstant16:
      return {"StoragePushConstant16",
              {"VkPhysicalDeviceVulkan11Features::storagePushConstant16", f.v11.storagePushConstant16 != 0}};
    case spv::CapabilityStorageInputOutput16:
      return {"StorageInputOutput16",
              {"VkPhysicalDeviceVulkan11Features::storageInputOutput16", f.v11.storageInputOutput16 != 0}};
    case spv::CapabilityStorageBuffer8BitAccess:
      return {
          "StorageBuffer8BitAccess",
          {"VkPhysicalDeviceVulkan12Features::storageBuffer8BitAccess", f.v12.storageBuffer8BitAccess != 0}};
    case spv::CapabilityUniformAndStorageBuffer8BitAccess:
      return {"UniformAndStorageBuffer8BitAccess",
              {"VkPhysicalDeviceVulkan12Features::uniformAndStorageBuffer8BitAccess",
               f.v12.uniformAndStorageBuffer8BitAccess != 0}};
    case spv::CapabilityStoragePushConstant8:
      return {"StoragePushConstant8",
              {"VkPhysicalDeviceVulkan12Features::storagePushConstant8", f.v12.storagePushConstant8 != 0}};
    // Atomics.
    case spv::CapabilityInt64Atomics:
      return {"Int64Atomics",
              {"VkPhysicalDeviceVulkan12Features::shaderBufferInt64Atomics or shaderSharedInt64Atomics",
               f.v12.shaderBufferInt64Atomics || f.v12.shaderSharedInt64Atomics}};
    case spv::CapabilityAtomicFloat32AddEXT:
      return {"AtomicFloat32AddEXT",
              {"VkPhysicalDeviceShaderAtomicFloatFeaturesEXT::shaderBufferFloat32AtomicAdd or "
               "shaderSharedFloat32AtomicAdd",
               f.atomic_float.shaderBufferFloat32AtomicAdd || f.atomic_float.shaderSharedFloat32AtomicAdd}};
    case spv::CapabilityAtomicFloat64AddEXT:
      return {"AtomicFloat64AddEXT",
              {"VkPhysicalDeviceShaderAtomicFloatFeaturesEXT::shaderBufferFloat64AtomicAdd or "
               "shaderSharedFloat64AtomicAdd",
               f.atomic_float.shaderBufferFloat64AtomicAdd || f.atomic_float.shaderSharedFloat64AtomicAdd}};
    case spv::CapabilityAtomicFloat16AddEXT:
      return {"AtomicFloat16AddEXT",
              {"VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT::shaderBufferFloat16AtomicAdd or "
               "shaderSharedFloat16AtomicAdd",
               f.atomic_float2.shaderBufferFloat16AtomicAdd || f.atomic_float2.shaderSharedFloat16AtomicAdd}};
    case spv::CapabilityAtomicFloat32MinMaxEXT:
      return {"AtomicFloat32MinMaxEXT",
              {"VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT::shaderBufferFloat32AtomicMinMax or "
               "shaderSharedFloat32AtomicMinMax",
               f.atomic_float2.shaderBufferFloat32AtomicMinMax ||
                   f.atomic_float2.shaderSharedFloat32AtomicMinMax}};
    case spv::CapabilityAtomicFloat64MinMaxEXT:
      return {"AtomicFloat64MinMaxEXT",
              {"VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT::shaderBufferFloat64AtomicMinMax or "
               "shaderSharedFloat64AtomicMinMax",
               f.atomic_float2.shaderBufferFloat64AtomicMinMax ||
                   f.atomic_float2.shaderSharedFloat64AtomicMinMax}};
    case spv::CapabilityAtomicFloat16MinMaxEXT:
      return {"AtomicFloat16MinMaxEXT",
              {"VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT::shaderBufferFloat16AtomicMinMax or "
               "shaderSharedFloat16AtomicMinMax",
               f.atomic_float2.shaderBufferFloat16AtomicMinMax ||
                   f.atomic_float2.shaderSharedFloat16AtomicMinMax}};
    // Memory model, pointers, layouts.
    case spv::CapabilityVulkanMemoryModel:
      return {"VulkanMemoryModel",
              {"VkPhysicalDeviceVulkan12Features::vulkanMemoryModel", f.v12.vulkanMemoryModel != 0}};
    case spv::CapabilityVulkanMemoryModelDeviceScope:
      return {"VulkanMemoryModelDeviceScope",
              {"VkPhysicalDeviceVulkan12Features::vulkanMemoryModelDeviceScope",
               f.v12.vulkanMemoryModelDeviceScope != 0}};
    case spv::CapabilityVariablePointersStorageBuffer:
      return {"VariablePointersStorageBuffer",
              {"VkPhysicalDeviceVulkan11Features::variablePointersStorageBuffer",
               f.v11.variablePointersStorageBuffer != 0}};
    case spv::CapabilityVariablePointers:
      return {"VariablePointers",
              {"VkPhysicalDeviceVulkan11Features::variablePointers", f.v11.variablePointers != 0}};
    case spv::CapabilityPhysicalStorageBufferAddresses:
      return {"PhysicalStorageBufferAddresses",
              {"VkPhysicalDeviceVulkan12Features::bufferDeviceAddress", f.v12.bufferDeviceAddress != 0}};
    case spv::CapabilityWorkgroupMemoryExplicitLayoutKHR:
      return {"WorkgroupMemoryExplicitLayoutKHR",
              {"VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR::workgroupMemoryExplicitLayout",
               f.workgroup_layout.workgroupMemoryExplicitLayout != 0}};
    case spv::CapabilityWorkgroupMemoryExplicitLayout8BitAccessKHR:
      return {"WorkgroupMemoryExplicitLayout8BitAccessKHR",
              {"VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR::"
               "workgroupMemoryExplicitLayout8BitAccess",
               f.workgroup_layout.workgroupMemoryExplicitLayout8BitAccess != 0}};
    case spv::CapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR:
      return {"WorkgroupMemoryExplicitLayout16BitAccessKHR",
              {"VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR::"
               "workgroupMemoryExplicitLayout16BitAccess",
               f.workgroup_layout.workgroupMemoryExplicitLayout16BitAccess != 0}};
    // Arrays of buffers indexed by non-uniform values.
    case spv::CapabilityShaderNonUniform:
      return {"ShaderNonUniform", {"Vulkan 1.2", d.api_version >= VK_API_VERSION_1_2}};
    case spv::CapabilityRuntimeDescriptorArray:
      return {
          "RuntimeDescriptorArray",
          {"VkPhysicalDeviceVulkan12Features::runtimeDescriptorArray", f.v12.runtimeDescriptorArray != 0}};
    case spv::CapabilityStorageBufferArrayNonUniformIndexing:
      return {"StorageBufferArrayNonUniformIndexing",
              {"VkPhysicalDeviceVulkan12Features::shaderStorageBufferArrayNonUniformIndexing",
               f.v12.shaderStorageBufferArrayNonUniformIndexing != 0}};
    case spv::CapabilityUniformBufferArrayNonUniformIndexing:
      return {"UniformBufferArrayNonUniformIndexing",
              {"VkPhysicalDeviceVulkan12Features::shaderUniformBufferArrayNonUniformIndexing",
               f.v12.shaderUniformBufferArrayNonUniformIndexing != 0}};
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
      return {
          "DotProductInputAll",
          {"VkPhysicalDeviceVulkan13Features::shaderIntegerDotProduct", f.v13.shaderIntegerDotProduct != 0}};
    case spv::CapabilityDotProductInput4x8Bit:
      return {
          "DotProductInput4x8Bit",
          {"VkPhysicalDeviceVulkan13Features::shaderIntegerDotProduct", f.v13.shaderIntegerDotProduct != 0}};
    case spv::CapabilityDotProductInput4x8BitPacked:
      return {
          "DotProductInput4x8BitPacked",
          {"VkPhysicalDeviceVulkan13Features::shaderIntegerDotProduct", f.v13.shaderIntegerDotProduct != 0}};
    case spv::CapabilityDotProduct:
      return {
          "DotProduct",
          {"VkPhysicalDeviceVulkan13Features::shaderIntegerDotProduct", f.v13.shaderIntegerDotProduct != 0}};
    case spv::CapabilityShaderClockKHR:
      return {"ShaderClockKHR",
              {"VkPhysicalDeviceShaderClockFeaturesKHR::shaderSubgroupClock or shaderDeviceClock",
               f.clock.shaderSubgroupClock || f.clock.shaderDeviceClock}};
    case spv::CapabilityExpectAssumeKHR:
      return {"ExpectAssumeKHR",
              {"VkPhysicalDeviceShaderExpectAssumeFeaturesKHR::shaderExpectAssume",
               f.expect_assume.shaderExpectAssume != 0}};
    case kCapabilityCooperativeMatrixKHR:
      return {"CooperativeMatrixKHR",
              {"VkPhysicalDeviceCooperativeMatrixFeaturesKHR::cooperativeMatrix",
               f.cooperative_matrix.cooperativeMatrix != 0}};
    case kCapabilityBFloat16TypeKHR:
      return {"BFloat16TypeKHR",
              {"VkPhysicalDeviceShaderBfloat16FeaturesKHR::shaderBFloat16Type",
               f.bfloat16.shaderBFloat16Type != 0}};
    case kCapabilityBFloat16DotProductKHR:
      return {"BFloat16DotProductKHR",
              {"VkPhysicalDeviceShaderBfloat16FeaturesKHR::shaderBFloat16DotProduct",
               f.bfloat16.shaderBFloat16DotProduct != 0}};
    case kCapabilityBFloat16CooperativeMatrixKHR:
      return {"BFloat16CooperativeMatrixKHR",
              {"VkPhysicalDeviceShaderBfloat16FeaturesKHR::shaderBFloat16CooperativeMatrix",
               f.bfloat16.shaderBFloat16CooperativeMatrix != 0}};
    default:
      return {};
  }
}

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
  switch (mode) {
    case spv::ExecutionModeDenormPreserve:
      name = "DenormPreserve";
      property = "shaderDenormPreserveFloat";
      met = pick(p.shaderDenormPreserveFloat16, p.shaderDenormPreserveFloat32, p.shaderDenormPreserveFloat64);
      break;
    case spv::ExecutionModeDenormFlushToZero:
      name = "DenormFlushToZero";
      property = "shaderDenormFlushToZeroFloat";
      met = pick(p.shaderDenormFlushToZeroFloat16, p.shaderDenormFlushToZeroFloat32,
                 p.shaderDenormFlushToZeroFloat64);
      break;
    case spv::ExecutionModeSignedZeroInfNanPreserve:
      name = "SignedZeroInfNanPreserve";
      property = "shaderSignedZeroInfNanPreserveFloat";
      met = pick(p.shaderSignedZeroInfNanPreserveFloat16, p.shaderSignedZeroInfNanPreserveFloat32,
                 p.shaderSignedZeroInfNanPreserveFloat64);
      break;
    case spv::ExecutionModeRoundingModeRTE:
      name = "RoundingModeRTE";
      property = "shaderRoundingModeRTEFloat";
      met = pick(p.shaderRoundingModeRTEFloat16, p.shaderRoundingModeRTEFloat32,
                 p.shaderRoundingModeRTEFloat64);
      break;
    case spv::ExecutionModeRoundingModeRTZ:
      name = "RoundingModeRTZ";
      property = "shaderRoundingModeRTZFloat";
      met = pick(p.shaderRoundingModeRTZFloat16, p.shaderRoundingModeRTZFloat32,
                 p.shaderRoundingModeRTZFloat64);
      break;
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
                                     const uint32_t* words, size_t count, const std::string& kernel) {
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

  for_each_instruction(words, count, [&](const Instruction& in) {
    if (in.opcode == spv::OpCapability && in.operand_count >= 1) {
      const uint32_t capability = in.operands[0];
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
  check_against_device(d, enabled, out, where);
  return out;
}

}  // namespace porta::vk
