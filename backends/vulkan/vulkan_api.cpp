#include "vulkan_api.hpp"

namespace porta::vk {

const char* result_name(VkResult result) {
  switch (result) {
#define PORTA_VK_RESULT(name) \
  case name:                  \
    return #name;
    PORTA_VK_RESULT(VK_SUCCESS)
    PORTA_VK_RESULT(VK_NOT_READY)
    PORTA_VK_RESULT(VK_TIMEOUT)
    PORTA_VK_RESULT(VK_EVENT_SET)
    PORTA_VK_RESULT(VK_EVENT_RESET)
    PORTA_VK_RESULT(VK_INCOMPLETE)
    PORTA_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    PORTA_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    PORTA_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    PORTA_VK_RESULT(VK_ERROR_DEVICE_LOST)
    PORTA_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    PORTA_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    PORTA_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    PORTA_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    PORTA_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    PORTA_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    PORTA_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    PORTA_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    PORTA_VK_RESULT(VK_ERROR_UNKNOWN)
    PORTA_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    PORTA_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    PORTA_VK_RESULT(VK_ERROR_FRAGMENTATION)
    PORTA_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    PORTA_VK_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
    PORTA_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef PORTA_VK_RESULT
    default:
      return "VK_ERROR_(unknown)";
  }
}

porta_status result_status(VkResult result) {
  switch (result) {
    case VK_SUCCESS:
      return PORTA_SUCCESS;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_FRAGMENTATION:
    case VK_ERROR_TOO_MANY_OBJECTS:
      return PORTA_ERROR_OUT_OF_MEMORY;
    case VK_ERROR_DEVICE_LOST:
    case VK_TIMEOUT:
      return PORTA_ERROR_DEVICE_LOST;
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FORMAT_NOT_SUPPORTED:
      return PORTA_ERROR_UNSUPPORTED;
    case VK_ERROR_INCOMPATIBLE_DRIVER:
    case VK_ERROR_INITIALIZATION_FAILED:
    case VK_ERROR_LAYER_NOT_PRESENT:
      return PORTA_ERROR_UNAVAILABLE;
    case VK_ERROR_INVALID_SHADER_NV:
      return PORTA_ERROR_INVALID_KERNEL;
    default:
      return PORTA_ERROR_BACKEND;
  }
}

void check(VkResult result, const std::string& device, const char* call) {
  if (result == VK_SUCCESS) return;
  if (device.empty()) plugin::fail(result_status(result), "vulkan: %s: %s", call, result_name(result));
  plugin::fail(result_status(result), "vulkan: %s: %s: %s", device.c_str(), call, result_name(result));
}

std::string version_string(uint32_t version) {
  return plugin::format("%u.%u.%u", VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version),
                        VK_API_VERSION_PATCH(version));
}

}  // namespace porta::vk
