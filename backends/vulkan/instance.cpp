#include "instance.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>

#include "cooperative_matrix.hpp"

namespace porta::vk {
namespace {

using plugin::fail;
using plugin::format;

Instance*& instance_slot() {
  static Instance* slot = nullptr;
  return slot;
}

// PORTA_VULKAN_VALIDATION: unset or "0" leaves the layer off; "require" makes
// init fail where the layer cannot be enabled, so a run that is meant to be
// checked cannot go on unchecked; any other value enables it where it is
// installed and only warns where it is not.
enum class Validation { kOff, kWanted, kRequired };

Validation validation_mode() {
  const char* v = std::getenv("PORTA_VULKAN_VALIDATION");
  if (!v || !*v || std::strcmp(v, "0") == 0) return Validation::kOff;
  return std::strcmp(v, "require") == 0 ? Validation::kRequired : Validation::kWanted;
}

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                     const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                     void*) {
  if (severity &
      (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
    std::string message = "vulkan validation: ";
    message += data && data->pMessage ? data->pMessage : "(no message)";
    plugin::log(PORTA_LOG_ERROR, message);
  }
  return VK_FALSE;  // never abort the call: the message is the report
}

const char* vendor_name(uint32_t id) {
  switch (id) {
    case 0x10DE:
      return "NVIDIA";
    case 0x1002:
    case 0x1022:
      return "AMD";
    case 0x8086:
      return "Intel";
    case 0x13B5:
      return "ARM";
    case 0x5143:
      return "Qualcomm";
    case 0x106B:
      return "Apple";
    case 0x1010:
      return "Imagination";
    case 0x14E4:
      return "Broadcom";
    case 0x1AE0:
      return "Google";
    case 0x19E5:
      return "Huawei";
    case 0x10002:
      return "VeriSilicon";
    case 0x10003:
      return "Kazan";
    case 0x10004:
      return "Codeplay";
    case 0x10005:
      return "Mesa";
    case 0x10006:
      return "PoCL";
    case 0x10007:
      return "MobileEye";
    default:
      return nullptr;
  }
}

std::string driver_version_string(const VkPhysicalDeviceProperties& p) {
  const uint32_t v = p.driverVersion;
  if (p.vendorID == 0x10DE)  // NVIDIA packs 10.8.8.6 bits
    return format("%u.%u.%u.%u", v >> 22, (v >> 14) & 0xff, (v >> 6) & 0xff, v & 0x3f);
  return version_string(v);
}

porta_device_type device_type(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return PORTA_DEVICE_DISCRETE_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return PORTA_DEVICE_INTEGRATED_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return PORTA_DEVICE_VIRTUAL_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return PORTA_DEVICE_CPU;
    default:
      return PORTA_DEVICE_OTHER;
  }
}

template <class F>
void load_instance(Instance& in, F& fn, const char* name, bool required) {
  fn = reinterpret_cast<F>(in.global.vkGetInstanceProcAddr(in.handle, name));
  if (!fn && required) fail(PORTA_ERROR_UNAVAILABLE, "vulkan: the loader has no %s", name);
}

void load_loader(Instance& in) {
  if (!in.library.open({"libvulkan.so.1", "libvulkan.so"}))
    fail(PORTA_ERROR_UNAVAILABLE, "vulkan: no Vulkan loader: %s", in.library.reason().c_str());
  in.library.load(in.global.vkGetInstanceProcAddr, "vkGetInstanceProcAddr");
#define PORTA_VK_LOAD_GLOBAL(name) load_instance(in, in.global.name, #name, true);
  PORTA_VK_GLOBAL_FUNCTIONS(PORTA_VK_LOAD_GLOBAL)
#undef PORTA_VK_LOAD_GLOBAL
  load_instance(in, in.global.vkEnumerateInstanceVersion, "vkEnumerateInstanceVersion", false);
}

std::vector<VkExtensionProperties> instance_extensions(Instance& in, const char* layer) {
  uint32_t n = 0;
  if (in.global.vkEnumerateInstanceExtensionProperties(layer, &n, nullptr) != VK_SUCCESS) return {};
  std::vector<VkExtensionProperties> out(n);
  if (in.global.vkEnumerateInstanceExtensionProperties(layer, &n, out.data()) != VK_SUCCESS) return {};
  out.resize(n);
  return out;
}

bool has_extension(const std::vector<VkExtensionProperties>& list, const char* name) {
  return std::any_of(list.begin(), list.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

// The Vulkan header version a layer was built against; 0 when it is not installed.
uint32_t layer_version(Instance& in, const char* name) {
  uint32_t n = 0;
  if (in.global.vkEnumerateInstanceLayerProperties(&n, nullptr) != VK_SUCCESS) return 0;
  std::vector<VkLayerProperties> layers(n);
  if (in.global.vkEnumerateInstanceLayerProperties(&n, layers.data()) != VK_SUCCESS) return 0;
  for (uint32_t i = 0; i < n; ++i)
    if (std::strcmp(layers[i].layerName, name) == 0) return layers[i].specVersion;
  return 0;
}

void create_instance(Instance& in) {
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (in.global.vkEnumerateInstanceVersion) in.global.vkEnumerateInstanceVersion(&loader_version);
  if (loader_version < VK_API_VERSION_1_1)
    fail(PORTA_ERROR_UNAVAILABLE, "vulkan: the Vulkan loader is version %s; porta needs 1.1 or newer",
         version_string(loader_version).c_str());
  in.api_version = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);

  const auto extensions = instance_extensions(in, nullptr);
  std::vector<const char*> enabled_extensions;
  std::vector<const char*> layers;
  VkInstanceCreateFlags flags = 0;
  // MoltenVK and other non-conformant drivers only show up when asked for.
  if (has_extension(extensions, "VK_KHR_portability_enumeration")) {
    enabled_extensions.push_back("VK_KHR_portability_enumeration");
    flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }

  VkDebugUtilsMessengerCreateInfoEXT messenger_info =
      make<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = on_validation_message;
  bool validation = false;
  if (const Validation mode = validation_mode(); mode != Validation::kOff) {
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const auto layer_extensions = instance_extensions(in, layer);
    const uint32_t version = layer_version(in, layer);
    const char* missing = nullptr;
    if (version == 0)
      missing = "VK_LAYER_KHRONOS_validation is not installed (Debian: vulkan-validationlayers)";
    else if (!has_extension(extensions, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
             !has_extension(layer_extensions, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
      missing = "VK_EXT_debug_utils is missing";
    if (!missing) {
      layers.push_back(layer);
      enabled_extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      validation = true;
      in.validation_layer_version = version;
    } else if (mode == Validation::kRequired) {
      fail(PORTA_ERROR_UNAVAILABLE, "vulkan: PORTA_VULKAN_VALIDATION=require but %s", missing);
    } else {
      plugin::log(
          PORTA_LOG_WARN,
          format("vulkan: PORTA_VULKAN_VALIDATION is set but %s; continuing without validation", missing));
    }
  }

  VkApplicationInfo app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "porta";
  app.pEngineName = "porta";
  app.apiVersion = in.api_version;
  VkInstanceCreateInfo info = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pNext = validation ? &messenger_info : nullptr;  // also reports on vkCreateInstance itself
  info.flags = flags;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(enabled_extensions.size());
  info.ppEnabledExtensionNames = enabled_extensions.data();
  VkResult r = in.global.vkCreateInstance(&info, nullptr, &in.handle);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
    fail(PORTA_ERROR_UNAVAILABLE,
         "vulkan: vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER (the Vulkan loader found no usable driver; "
         "VK_LOADER_DEBUG=driver shows why)");
  check(r, "", "vkCreateInstance");

#define PORTA_VK_LOAD_INSTANCE(name) load_instance(in, in.fn.name, #name, true);
  PORTA_VK_INSTANCE_FUNCTIONS(PORTA_VK_LOAD_INSTANCE)
#undef PORTA_VK_LOAD_INSTANCE
  if (validation) {
    load_instance(in, in.fn.vkCreateDebugUtilsMessengerEXT, "vkCreateDebugUtilsMessengerEXT", true);
    load_instance(in, in.fn.vkDestroyDebugUtilsMessengerEXT, "vkDestroyDebugUtilsMessengerEXT", true);
    check(in.fn.vkCreateDebugUtilsMessengerEXT(in.handle, &messenger_info, nullptr, &in.messenger), "",
          "vkCreateDebugUtilsMessengerEXT");
    plugin::log(PORTA_LOG_INFO, "vulkan: validation layer enabled");
  }
}

// A compute-only family when there is one (often an async compute engine),
// otherwise the first family with compute.
bool pick_queue_family(Instance& in, PhysicalDevice& d) {
  uint32_t n = 0;
  in.fn.vkGetPhysicalDeviceQueueFamilyProperties(d.handle, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  in.fn.vkGetPhysicalDeviceQueueFamilyProperties(d.handle, &n, families.data());
  int best = -1;
  for (uint32_t i = 0; i < n; ++i) {
    const VkQueueFlags f = families[i].queueFlags;
    if (!(f & VK_QUEUE_COMPUTE_BIT) || families[i].queueCount == 0) continue;
    if (!(f & VK_QUEUE_GRAPHICS_BIT)) {
      best = static_cast<int>(i);
      break;
    }
    if (best < 0) best = static_cast<int>(i);
  }
  if (best < 0) return false;
  d.queue_family = static_cast<uint32_t>(best);
  d.timestamp_valid_bits = families[best].timestampValidBits;
  return true;
}

void describe(Instance& in, PhysicalDevice& d) {
  in.fn.vkGetPhysicalDeviceProperties(d.handle, &d.properties);
  in.fn.vkGetPhysicalDeviceMemoryProperties(d.handle, &d.memory);
  d.api_version = std::min(d.properties.apiVersion, in.api_version);

  uint32_t n = 0;
  in.fn.vkEnumerateDeviceExtensionProperties(d.handle, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  in.fn.vkEnumerateDeviceExtensionProperties(d.handle, nullptr, &n, exts.data());
  for (uint32_t i = 0; i < n; ++i) d.extensions.insert(exts[i].extensionName);
  // A validation layer older than an extension cannot check it and reports
  // its structures as errors: with validation on, such extensions stay off.
  static const struct {
    const char* name;
    uint32_t header;
  } kNewerExtensions[] = {{kCooperativeMatrixExtension, VK_MAKE_API_VERSION(0, 1, 3, 255)},
                          {kExpectAssumeExtension, VK_MAKE_API_VERSION(0, 1, 3, 265)},
                          {kMaintenance8Extension, VK_MAKE_API_VERSION(0, 1, 4, 307)},
                          {kBfloat16Extension, VK_MAKE_API_VERSION(0, 1, 4, 311)}};
  for (const auto& e : kNewerExtensions)
    if (in.validation_layer_version && in.validation_layer_version < e.header && d.extensions.erase(e.name))
      plugin::log(PORTA_LOG_INFO,
                  plugin::format("vulkan: %s left off: the validation layer (header %u.%u.%u) "
                                 "predates it",
                                 e.name, VK_API_VERSION_MAJOR(in.validation_layer_version),
                                 VK_API_VERSION_MINOR(in.validation_layer_version),
                                 VK_API_VERSION_PATCH(in.validation_layer_version)));

  const bool v12 = d.api_version >= VK_API_VERSION_1_2;
  const bool v13 = d.api_version >= VK_API_VERSION_1_3;
  VkPhysicalDeviceProperties2 props =
      make<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  VkPhysicalDeviceSubgroupProperties subgroup =
      make<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  VkPhysicalDeviceMaintenance3Properties maint3 = make<VkPhysicalDeviceMaintenance3Properties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES);
  VkPhysicalDeviceMaintenance4Properties maint4 = make<VkPhysicalDeviceMaintenance4Properties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES);
  VkPhysicalDeviceDriverProperties driver =
      make<VkPhysicalDeviceDriverProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
  props.pNext = &subgroup;
  subgroup.pNext = &maint3;
  const bool has_driver = v12 || d.has(VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
  void** tail = &maint3.pNext;
  // From Vulkan 1.2 the driver's identity comes with the float controls in
  // the 1.2 structure, which may not be chained beside the older ones.
  d.v12_properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
  if (v12) {
    *tail = &d.v12_properties;
    tail = &d.v12_properties.pNext;
  } else if (has_driver) {
    *tail = &driver;
    tail = &driver.pNext;
  }
  if (v13) {
    *tail = &maint4;
    tail = &maint4.pNext;
  }
  // The PCI address names the device to tools outside Vulkan (NVML's energy counter).
  VkPhysicalDevicePCIBusInfoPropertiesEXT pci = make<VkPhysicalDevicePCIBusInfoPropertiesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT);
  const bool has_pci = d.has(VK_EXT_PCI_BUS_INFO_EXTENSION_NAME);
  if (has_pci) *tail = &pci;
  in.fn.vkGetPhysicalDeviceProperties2(d.handle, &props);
  d.subgroup = subgroup;
  d.subgroup.pNext = nullptr;
  d.v12_properties.pNext = nullptr;
  if (v12) {
    driver.driverID = d.v12_properties.driverID;
    std::memcpy(driver.driverName, d.v12_properties.driverName, sizeof driver.driverName);
    std::memcpy(driver.driverInfo, d.v12_properties.driverInfo, sizeof driver.driverInfo);
  }
  d.max_allocation = maint3.maxMemoryAllocationSize;
  d.max_buffer = v13 ? maint4.maxBufferSize : d.max_allocation;

  d.features = std::make_unique<FeatureChain>(d);
  const FeatureChain& features = *d.features;
  in.fn.vkGetPhysicalDeviceFeatures2(d.handle, &d.features->core);
  if (features.cooperative_matrix.cooperativeMatrix) {
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR list = nullptr;
    load_instance(in, list, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR", false);
    uint32_t count = 0;
    if (list && list(d.handle, &count, nullptr) == VK_SUCCESS) {
      CooperativeMatrixPropertiesKHR empty{};
      empty.sType = kStructureTypeCooperativeMatrixPropertiesKHR;
      d.cooperative_matrices.resize(count, empty);
      if (list(d.handle, &count, d.cooperative_matrices.data()) != VK_SUCCESS) count = 0;
      d.cooperative_matrices.resize(count);
    }
  }
  if (features.cooperative_matrix2.cooperativeMatrixWorkgroupScope ||
      features.cooperative_matrix2.cooperativeMatrixFlexibleDimensions) {
    PFN_vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV list = nullptr;
    load_instance(in, list, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV", false);
    uint32_t count = 0;
    if (list && list(d.handle, &count, nullptr) == VK_SUCCESS) {
      CooperativeMatrixFlexibleDimensionsPropertiesNV empty{};
      empty.sType = kStructureTypeCooperativeMatrixFlexibleDimensionsPropertiesNV;
      d.flexible_matrices.resize(count, empty);
      if (list(d.handle, &count, d.flexible_matrices.data()) != VK_SUCCESS) count = 0;
      d.flexible_matrices.resize(count);
    }
  }
  d.timeline = v12 && features.v12.timelineSemaphore && !in.is_disabled("timeline");
  d.push_descriptor = d.has(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) && !in.is_disabled("push-descriptor");

  const VkPhysicalDeviceLimits& lim = d.properties.limits;
  porta_device_info& info = d.info;
  plugin::copy_string(info.backend, "vulkan");
  plugin::copy_string(info.name, d.properties.deviceName);
  const char* vendor = vendor_name(d.properties.vendorID);
  plugin::copy_string(info.vendor,
                      vendor ? std::string(vendor) : format("vendor 0x%04x", d.properties.vendorID));
  std::string driver_text;
  if (has_driver) {
    driver_text = driver.driverName;
    if (driver.driverInfo[0]) driver_text += format(" (%s)", driver.driverInfo);
    driver_text += ", ";
  }
  driver_text += "driver version " + driver_version_string(d.properties);
  plugin::copy_string(info.driver, driver_text);
  plugin::copy_string(info.api_version, "Vulkan " + version_string(d.properties.apiVersion));
  info.type = device_type(d.properties.deviceType);
  info.index = d.index;
  if (has_pci) plugin::set_pci_bus_id(info, pci.pciDomain, pci.pciBus, pci.pciDevice, pci.pciFunction);

  uint64_t local_total = 0, largest_local = 0;
  for (uint32_t i = 0; i < d.memory.memoryHeapCount; ++i) {
    const VkMemoryHeap& h = d.memory.memoryHeaps[i];
    if (!(h.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)) continue;
    local_total += h.size;
    largest_local = std::max<uint64_t>(largest_local, h.size);
  }
  info.memory_bytes = local_total;
  // Every heap, with whether a memory type on it is host-visible (UMA and
  // resizable-BAR heaps are both).
  info.memory_heap_count = std::min<uint32_t>(d.memory.memoryHeapCount, PORTA_MAX_MEMORY_HEAPS);
  for (uint32_t i = 0; i < info.memory_heap_count; ++i) {
    const VkMemoryHeap& h = d.memory.memoryHeaps[i];
    uint32_t flags =
        (h.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) ? uint32_t(PORTA_MEMORY_HEAP_DEVICE_LOCAL) : 0u;
    for (uint32_t t = 0; t < d.memory.memoryTypeCount; ++t)
      if (d.memory.memoryTypes[t].heapIndex == i &&
          (d.memory.memoryTypes[t].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
        flags |= PORTA_MEMORY_HEAP_HOST_VISIBLE;
    info.memory_heaps[i] = {h.size, flags, 0};
  }

  porta_device_limits& l = info.limits;
  for (int i = 0; i < 3; ++i) {
    l.max_workgroup_size[i] = lim.maxComputeWorkGroupSize[i];
    l.max_workgroup_count[i] = lim.maxComputeWorkGroupCount[i];
  }
  l.max_workgroup_invocations = lim.maxComputeWorkGroupInvocations;
  l.max_shared_memory_bytes = lim.maxComputeSharedMemorySize;
  l.max_push_constant_bytes = lim.maxPushConstantsSize;
  l.subgroup_size = subgroup.subgroupSize;
  l.max_allocation_bytes = d.max_allocation;
  // A buffer is one allocation; a kernel may bind at most maxStorageBufferRange of
  // it, which stream_dispatch checks (transfers work on larger buffers).
  l.max_buffer_bytes = std::min({d.max_buffer, d.max_allocation, largest_local});
  info.max_binding_bytes = std::min<uint64_t>(lim.maxStorageBufferRange, l.max_buffer_bytes);
  info.binding_offset_alignment = lim.minStorageBufferOffsetAlignment;

  uint64_t f = PORTA_FEATURE_ATOMIC_INT32;  // core Vulkan: storage-buffer and shared int atomics
  if (features.core.features.shaderFloat64) f |= PORTA_FEATURE_FP64;
  if (features.core.features.shaderInt16) f |= PORTA_FEATURE_INT16;
  if (features.core.features.shaderInt64) f |= PORTA_FEATURE_INT64;
  if (v12) {
    if (features.v12.shaderFloat16) f |= PORTA_FEATURE_FP16;
    if (features.v12.shaderInt8) f |= PORTA_FEATURE_INT8;
    if (features.v11.storageBuffer16BitAccess) f |= PORTA_FEATURE_STORAGE_16BIT;
    if (features.v12.storageBuffer8BitAccess) f |= PORTA_FEATURE_STORAGE_8BIT;
    if (features.v12.shaderBufferInt64Atomics) f |= PORTA_FEATURE_ATOMIC_INT64;
    if (features.v12.timelineSemaphore) f |= PORTA_FEATURE_TIMELINE_SEMAPHORE;
  }
  if (features.atomic_float.shaderBufferFloat32AtomicAdd) f |= PORTA_FEATURE_ATOMIC_FLOAT32;
  if (features.cooperative_matrix.cooperativeMatrix) f |= PORTA_FEATURE_COOPERATIVE_MATRIX;
  // The driver lists 16x16x16 float16 x float16 + float32 -> float32 at Subgroup
  // scope: matrix hardware for the GEMM's cooperative-matrix kernel (component
  // types 0 and 1 are VK_COMPONENT_TYPE_FLOAT16_KHR and FLOAT32_KHR).
  // Likewise bfloat16 (VK_COMPONENT_TYPE_BFLOAT16_KHR) where the device also
  // takes bfloat16 cooperative matrices in shaders (VK_KHR_shader_bfloat16).
  for (const CooperativeMatrixPropertiesKHR& p : d.cooperative_matrices) {
    const bool f32_into_f32 = p.MSize == 16 && p.NSize == 16 && p.KSize == 16 && p.CType == 1 &&
                              p.ResultType == 1 && p.scope == 3 && !p.saturatingAccumulation;
    if (f32_into_f32 && p.AType == 0 && p.BType == 0) f |= PORTA_FEATURE_COOPERATIVE_MATRIX_F16_HW;
    if (f32_into_f32 && p.AType == kComponentBfloat16 && p.BType == kComponentBfloat16 &&
        features.bfloat16.shaderBFloat16CooperativeMatrix)
      f |= PORTA_FEATURE_COOPERATIVE_MATRIX_BF16_HW;
  }
  if (features.bfloat16.shaderBFloat16Type) f |= PORTA_FEATURE_BF16;
  if ((subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
      (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT))
    f |= PORTA_FEATURE_SUBGROUPS;
  if ((f & PORTA_FEATURE_SUBGROUPS) && (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_CLUSTERED_BIT))
    f |= PORTA_FEATURE_SUBGROUP_CLUSTERED;
  info.features = f;

  // lavapipe: host memory, and each work-item of a group runs as a coroutine
  // between barriers.
  if (info.type == PORTA_DEVICE_CPU)
    info.flags = PORTA_DEVICE_FLAG_UNIFIED_MEMORY | PORTA_DEVICE_FLAG_FIBER_BARRIERS;
  // llvmpipe (lavapipe, every Mesa release so far) compiles each loop with a
  // counter shared by all loops of the invocation (gallivm's loop limiter,
  // LP_MAX_TGSI_LOOP_ITERATIONS = 65535) and leaves every loop once it runs
  // out, silently: a long-running work-item computes a wrong answer.
  // tests/vulkan/driver_test.cpp measures the limit and checks this flag.
  if (has_driver && driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE) info.flags |= PORTA_DEVICE_FLAG_LOOP_LIMIT;
  // The Vulkan SPIR-V environment leaves OpSRem and OpSMod undefined for
  // negative operands unless maintenance8 is enabled: NVIDIA's driver then
  // computes unsigned remainders, llvmpipe (Mesa 22.3) computes OpSMod as
  // OpSRem (-7 % 3 gives -1, not 2), silently. Without maintenance8 both are
  // built from OpSDiv (rewrites.cpp), unless PORTA_VULKAN_DISABLE names
  // "remainder-fix" (tests/vulkan/driver_test.cpp uses that to check the
  // driver's own answers against PORTA_DEVICE_FLAG_SMOD_AS_SREM).
  if (has_driver && driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE)
    info.flags |= PORTA_DEVICE_FLAG_SMOD_AS_SREM;
  d.exact_remainders = features.maintenance8.maintenance8 && !in.is_disabled("maintenance8");
  d.rewrite_remainders = (!d.exact_remainders || (info.flags & PORTA_DEVICE_FLAG_SMOD_AS_SREM)) &&
                         !in.is_disabled("remainder-fix");
  // GLSL's mix is x * (1 - a) + y * a; drivers may compute x + (y - x) * a
  // (NaN for an infinite x: NVIDIA's does). Every module's FMix is rebuilt as
  // the formula (rewrites.cpp), as the other backends compute it.
  d.rewrite_fmix = !in.is_disabled("fmix-formula");
  info.timer = PORTA_TIMER_DEVICE;
  info.priority = 10;  // after CUDA, before OpenCL on a device both drive
  // C of at least 2048 x 2048: the best of `porta-bench --gpu-only
  // --sweep-matmul kernels/matmul/matmul.comp` at 4096^2 on an H200 (bench/README.md):
  // 8 x 8 items in 128 x 128 blocks, prefetch into registers, 4-byte global
  // loads (NVIDIA's Vulkan compiler: 0.75 of cuBLAS SGEMM with them, 0.53
  // with 16-byte ones); from 1024 x 1024, 4 x 8 items in 64 x 128 blocks,
  // also with 4-byte loads (0.65 against 0.52 at 4096^2).
  info.tuning.tile_large = {16, 16, 16, 4, 8, 1, 1};
  info.tuning.tile_huge = {16, 16, 16, 8, 8, 1, 1};
  d.label = format("vulkan device %u (%s)", d.index, d.properties.deviceName);
  if (d.features->cooperative_matrix.cooperativeMatrix)
    plugin::log(PORTA_LOG_INFO,
                format("vulkan: %s lists cooperative-matrix multiply-adds: %s", d.label.c_str(),
                       describe_cooperative_matrices(d.cooperative_matrices, d.flexible_matrices).c_str()));
}

void enumerate(Instance& in) {
  uint32_t n = 0;
  check(in.fn.vkEnumeratePhysicalDevices(in.handle, &n, nullptr), "", "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> handles(n);
  check(in.fn.vkEnumeratePhysicalDevices(in.handle, &n, handles.data()), "", "vkEnumeratePhysicalDevices");
  handles.resize(n);
  if (handles.empty()) fail(PORTA_ERROR_UNAVAILABLE, "vulkan: the Vulkan loader found no physical devices");
  std::string skipped;
  for (VkPhysicalDevice h : handles) {
    PhysicalDevice d;
    d.handle = h;
    d.index = static_cast<uint32_t>(in.devices.size());
    in.fn.vkGetPhysicalDeviceProperties(h, &d.properties);
    const std::string name = d.properties.deviceName;
    if (std::min(d.properties.apiVersion, in.api_version) < VK_API_VERSION_1_1) {
      skipped += "; " + name + ": Vulkan 1.0 only (porta needs 1.1)";
      continue;
    }
    if (!pick_queue_family(in, d)) {
      skipped += "; " + name + ": no queue family with compute";
      continue;
    }
    describe(in, d);
    in.devices.push_back(std::move(d));
  }
  if (!skipped.empty()) plugin::log(PORTA_LOG_INFO, "vulkan: skipped devices" + skipped);
  if (in.devices.empty()) fail(PORTA_ERROR_UNAVAILABLE, "vulkan: no usable device%s", skipped.c_str());
}

}  // namespace

FeatureChain::FeatureChain(const PhysicalDevice& d) {
  core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  atomic_float.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
  atomic_float2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT;
  workgroup_layout.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR;
  subgroup_uniform_control_flow.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR;
  clock.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR;
  expect_assume.sType = kStructureTypeShaderExpectAssumeFeaturesKHR;
  cooperative_matrix.sType = kStructureTypeCooperativeMatrixFeaturesKHR;
  cooperative_matrix2.sType = kStructureTypeCooperativeMatrix2FeaturesNV;
  bfloat16.sType = kStructureTypeShaderBfloat16FeaturesKHR;
  maintenance8.sType = kStructureTypeMaintenance8FeaturesKHR;
  void** tail = &core.pNext;
  auto link = [&tail](auto& s) {
    *tail = &s;
    tail = &s.pNext;
  };
  // The per-version structures are only valid on devices of that version.
  if (d.api_version >= VK_API_VERSION_1_2) {
    link(v11);
    link(v12);
  }
  if (d.api_version >= VK_API_VERSION_1_3) link(v13);
  // One structure per extension the device has and porta enables (Device).
  if (d.has(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME)) link(atomic_float);
  if (d.has(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME)) link(atomic_float2);
  if (d.has(VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME)) link(workgroup_layout);
  if (d.has(VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME)) link(subgroup_uniform_control_flow);
  if (d.has(VK_KHR_SHADER_CLOCK_EXTENSION_NAME)) link(clock);
  if (d.has(kExpectAssumeExtension)) link(expect_assume);
  if (d.has(kCooperativeMatrixExtension)) link(cooperative_matrix);
  if (d.has(kCooperativeMatrixExtension) && d.has(kCooperativeMatrix2Extension)) link(cooperative_matrix2);
  if (d.has(kBfloat16Extension)) link(bfloat16);
  if (d.has(kMaintenance8Extension)) link(maintenance8);
}

Instance& instance() { return *instance_slot(); }
bool has_instance() { return instance_slot() != nullptr; }

void init_instance() {
  auto in = std::make_unique<Instance>();
  if (const char* list = std::getenv("PORTA_VULKAN_DISABLE")) {
    std::stringstream ss(list);
    for (std::string item; std::getline(ss, item, ',');)
      if (!item.empty()) in->disabled.insert(item);
  }
  if (const char* t = std::getenv("PORTA_VULKAN_TIMEOUT_MS")) {
    char* end = nullptr;
    unsigned long long ms = std::strtoull(t, &end, 10);
    if (end != t && *end == '\0' && ms > 0)
      in->timeout_ns = ms * 1000ull * 1000ull;
    else
      plugin::log(PORTA_LOG_WARN,
                  format("vulkan: ignoring PORTA_VULKAN_TIMEOUT_MS=%s (not a positive number)", t));
  }
  if (const char* stats = std::getenv("PORTA_VULKAN_PIPELINE_STATS"))
    in->pipeline_stats = std::strcmp(stats, "1") == 0;
  load_loader(*in);
  try {
    create_instance(*in);
    enumerate(*in);
  } catch (...) {
    if (in->messenger) in->fn.vkDestroyDebugUtilsMessengerEXT(in->handle, in->messenger, nullptr);
    if (in->handle && in->fn.vkDestroyInstance) in->fn.vkDestroyInstance(in->handle, nullptr);
    throw;
  }
  instance_slot() = in.release();
}

void shutdown_instance() {
  Instance* in = instance_slot();
  if (!in) return;
  if (in->messenger) in->fn.vkDestroyDebugUtilsMessengerEXT(in->handle, in->messenger, nullptr);
  in->fn.vkDestroyInstance(in->handle, nullptr);
  delete in;
  instance_slot() = nullptr;
}

}  // namespace porta::vk
