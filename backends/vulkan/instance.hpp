// The plugin's global state: the dlopen'ed loader, the VkInstance (with the
// validation layer and its messenger when PORTA_VULKAN_VALIDATION is set) and what
// every physical device offers, gathered once at init().
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "vulkan_api.hpp"

namespace porta::vk {

// Structures of extensions newer than the Vulkan headers porta builds against
// (Debian 12 ships 1.3.239); their layouts are fixed by the Vulkan registry.
struct CooperativeMatrixFeaturesKHR {
  VkStructureType sType;
  void* pNext;
  VkBool32 cooperativeMatrix;
  VkBool32 cooperativeMatrixRobustBufferAccess;
};
struct ShaderBfloat16FeaturesKHR {
  VkStructureType sType;
  void* pNext;
  VkBool32 shaderBFloat16Type;
  VkBool32 shaderBFloat16DotProduct;
  VkBool32 shaderBFloat16CooperativeMatrix;
};
constexpr VkStructureType kStructureTypeCooperativeMatrixFeaturesKHR =
    static_cast<VkStructureType>(1000506000);
// One matrix multiply-add a device runs natively (VkCooperativeMatrixPropertiesKHR):
// an M x K by K x N product of the component types (VkComponentTypeKHR) at a scope (VkScopeKHR).
struct CooperativeMatrixPropertiesKHR {
  VkStructureType sType;
  void* pNext;
  uint32_t MSize, NSize, KSize;
  uint32_t AType, BType, CType, ResultType;
  VkBool32 saturatingAccumulation;
  uint32_t scope;
};
constexpr VkStructureType kStructureTypeCooperativeMatrixPropertiesKHR =
    static_cast<VkStructureType>(1000506001);
using PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR =
    VkResult(VKAPI_PTR*)(VkPhysicalDevice, uint32_t*, CooperativeMatrixPropertiesKHR*);
// VK_NV_cooperative_matrix2: matrices of Workgroup scope, and multiply-adds
// of any size that is a multiple of a listed granularity (flexible
// dimensions), each for work-groups of a listed size.
struct CooperativeMatrix2FeaturesNV {
  VkStructureType sType;
  void* pNext;
  VkBool32 cooperativeMatrixWorkgroupScope;
  VkBool32 cooperativeMatrixFlexibleDimensions;
  VkBool32 cooperativeMatrixReductions;
  VkBool32 cooperativeMatrixConversions;
  VkBool32 cooperativeMatrixPerElementOperations;
  VkBool32 cooperativeMatrixTensorAddressing;
  VkBool32 cooperativeMatrixBlockLoads;
};
struct CooperativeMatrixFlexibleDimensionsPropertiesNV {
  VkStructureType sType;
  void* pNext;
  uint32_t MGranularity, NGranularity, KGranularity;
  uint32_t AType, BType, CType, ResultType;
  VkBool32 saturatingAccumulation;
  uint32_t scope;
  uint32_t workgroupInvocations;  // Workgroup scope: the work-group's size; else 0
};
constexpr VkStructureType kStructureTypeCooperativeMatrix2FeaturesNV =
    static_cast<VkStructureType>(1000593000);
constexpr VkStructureType kStructureTypeCooperativeMatrixFlexibleDimensionsPropertiesNV =
    static_cast<VkStructureType>(1000593001);
using PFN_vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV =
    VkResult(VKAPI_PTR*)(VkPhysicalDevice, uint32_t*, CooperativeMatrixFlexibleDimensionsPropertiesNV*);
constexpr const char* kCooperativeMatrix2Extension = "VK_NV_cooperative_matrix2";
constexpr VkStructureType kStructureTypeShaderBfloat16FeaturesKHR = static_cast<VkStructureType>(1000141000);
constexpr const char* kCooperativeMatrixExtension = "VK_KHR_cooperative_matrix";
constexpr const char* kBfloat16Extension = "VK_KHR_shader_bfloat16";
struct ShaderExpectAssumeFeaturesKHR {
  VkStructureType sType;
  void* pNext;
  VkBool32 shaderExpectAssume;
};
constexpr VkStructureType kStructureTypeShaderExpectAssumeFeaturesKHR =
    static_cast<VkStructureType>(1000544000);
constexpr const char* kExpectAssumeExtension = "VK_KHR_shader_expect_assume";
// VK_KHR_maintenance8: with its feature enabled, OpSRem and OpSMod keep their
// SPIR-V meaning for negative operands (rewrites.cpp).
struct Maintenance8FeaturesKHR {
  VkStructureType sType;
  void* pNext;
  VkBool32 maintenance8;
};
constexpr VkStructureType kStructureTypeMaintenance8FeaturesKHR = static_cast<VkStructureType>(1000574000);
constexpr const char* kMaintenance8Extension = "VK_KHR_maintenance8";

struct PhysicalDevice;

// The feature structures of one device, linked into a pNext chain: filled by
// vkGetPhysicalDeviceFeatures2 and given back unchanged to vkCreateDevice, so a
// device enables every feature it has. Not copyable: the chain points into it.
struct FeatureChain {
  VkPhysicalDeviceFeatures2 core{};
  VkPhysicalDeviceVulkan11Features v11{};
  VkPhysicalDeviceVulkan12Features v12{};
  VkPhysicalDeviceVulkan13Features v13{};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float{};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomic_float2{};
  VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR workgroup_layout{};
  VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR subgroup_uniform_control_flow{};
  VkPhysicalDeviceShaderClockFeaturesKHR clock{};
  ShaderExpectAssumeFeaturesKHR expect_assume{};
  CooperativeMatrixFeaturesKHR cooperative_matrix{};
  CooperativeMatrix2FeaturesNV cooperative_matrix2{};
  ShaderBfloat16FeaturesKHR bfloat16{};
  Maintenance8FeaturesKHR maintenance8{};

  explicit FeatureChain(const PhysicalDevice& device);
  FeatureChain(const FeatureChain&) = delete;
  FeatureChain& operator=(const FeatureChain&) = delete;
};

struct PhysicalDevice {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  uint32_t index = 0;
  std::string label;  // "vulkan device 0 (llvmpipe ...)", for messages
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  uint32_t api_version = 0;
  std::set<std::string> extensions;
  uint32_t queue_family = 0;
  uint32_t timestamp_valid_bits = 0;  // 0: the queue cannot write timestamps
  uint64_t max_allocation = 0;        // maxMemoryAllocationSize
  uint64_t max_buffer = 0;            // maxBufferSize (Vulkan 1.3), else max_allocation
  bool timeline = false;
  bool push_descriptor = false;
  // Build OpSRem and OpSMod from OpSDiv in prepare_module (rewrites.cpp):
  // the device does not enable maintenance8, or PORTA_DEVICE_FLAG_SMOD_AS_SREM.
  bool rewrite_remainders = false;
  bool exact_remainders = false;  // maintenance8 is enabled: OpSRem/OpSMod are exact
  bool rewrite_fmix = true;       // GLSL.std.450 FMix as GLSL's formula (rewrites.cpp)
  porta_device_info info{};
  // What the device offers to shaders: its features (all of which the device
  // is opened with), its subgroup operations and, from Vulkan 1.2, its float
  // controls; capabilities.cpp checks modules against them.
  std::unique_ptr<FeatureChain> features;
  VkPhysicalDeviceSubgroupProperties subgroup{};        // pNext cleared
  VkPhysicalDeviceVulkan12Properties v12_properties{};  // all zero below Vulkan 1.2
  // The cooperative-matrix multiply-adds it lists (VK_KHR_cooperative_matrix); empty without them.
  std::vector<CooperativeMatrixPropertiesKHR> cooperative_matrices;
  // Its flexible-dimension multiply-adds (VK_NV_cooperative_matrix2, where it
  // has workgroup scope or flexible dimensions); empty without them.
  std::vector<CooperativeMatrixFlexibleDimensionsPropertiesNV> flexible_matrices;

  bool has(const char* extension) const { return extensions.count(extension) != 0; }
};

struct Instance {
  plugin::Library library;
  GlobalFunctions global;
  InstanceFunctions fn;
  VkInstance handle = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  uint32_t api_version = VK_API_VERSION_1_1;
  std::vector<PhysicalDevice> devices;
  // Capabilities named in PORTA_VULKAN_DISABLE (comma list: "uma", "push-descriptor",
  // "timeline", "maintenance8"), so tests exercise the paths other drivers take;
  // "remainder-fix" and "fmix-formula" hand OpSRem/OpSMod and FMix to the
  // driver as they are, so tests see what the driver does.
  std::set<std::string> disabled;
  uint64_t timeout_ns = 60ull * 1000 * 1000 * 1000;  // PORTA_VULKAN_TIMEOUT_MS
  bool pipeline_stats = false;                       // PORTA_VULKAN_PIPELINE_STATS=1 (a diagnostic)
  uint32_t validation_layer_version = 0;             // its header version; 0: validation off

  bool is_disabled(const char* capability) const { return disabled.count(capability) != 0; }
};

// Valid between init_instance() and shutdown_instance().
Instance& instance();
bool has_instance();
void init_instance();
void shutdown_instance();

}  // namespace porta::vk
