// porta-bench's Vulkan floor: the dispatch overhead of Vulkan itself on the
// device porta measured, called directly, for porta's round trip and replay
// figures to be set beside. The loader is opened with dlopen (vulkan.h gives
// types only); the kernels are SPIR-V compiled by glslc when the peer is built.
//   round_trip  dims[0] bytes copied into a host-visible, coherent buffer (device-local
//               too where the device has such memory), a pre-recorded command buffer
//               (one dispatch adding 1 to each float, a barrier to host reads),
//               vkQueueSubmit with a fence, vkWaitForFences, the bytes copied out
//   replay      a command buffer of dims[0] dispatches of an empty kernel, a
//               compute-to-compute barrier after each (a stream is in order),
//               recorded once: vkQueueSubmit with a fence, vkWaitForFences
#define VK_NO_PROTOTYPES
#include <dlfcn.h>
#include <vulkan/vulkan.h>

#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "peer.h"
#include "peer_support.hpp"

namespace {

using Failure = porta::bench::PeerFailure;
using porta::bench::answering;
using porta::bench::copy_text;
using porta::bench::time_host_clock;

const uint32_t kEmptySpirv[] =
#include "vulkan_floor_empty.inc"
    ;
const uint32_t kAddOneSpirv[] =
#include "vulkan_floor_add_one.inc"
    ;

// clang-format off
#define FLOOR_VK_INSTANCE_FUNCTIONS(X) \
  X(vkDestroyInstance) \
  X(vkEnumeratePhysicalDevices) \
  X(vkGetPhysicalDeviceProperties) \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetPhysicalDeviceMemoryProperties) \
  X(vkCreateDevice) \
  X(vkGetDeviceProcAddr)
#define FLOOR_VK_DEVICE_FUNCTIONS(X) \
  X(vkDestroyDevice) \
  X(vkGetDeviceQueue) \
  X(vkCreateBuffer) \
  X(vkDestroyBuffer) \
  X(vkGetBufferMemoryRequirements) \
  X(vkAllocateMemory) \
  X(vkFreeMemory) \
  X(vkBindBufferMemory) \
  X(vkMapMemory) \
  X(vkCreateShaderModule) \
  X(vkDestroyShaderModule) \
  X(vkCreateDescriptorSetLayout) \
  X(vkDestroyDescriptorSetLayout) \
  X(vkCreatePipelineLayout) \
  X(vkDestroyPipelineLayout) \
  X(vkCreateComputePipelines) \
  X(vkDestroyPipeline) \
  X(vkCreateDescriptorPool) \
  X(vkDestroyDescriptorPool) \
  X(vkAllocateDescriptorSets) \
  X(vkUpdateDescriptorSets) \
  X(vkFreeDescriptorSets) \
  X(vkCreateCommandPool) \
  X(vkDestroyCommandPool) \
  X(vkAllocateCommandBuffers) \
  X(vkFreeCommandBuffers) \
  X(vkBeginCommandBuffer) \
  X(vkEndCommandBuffer) \
  X(vkCmdBindPipeline) \
  X(vkCmdBindDescriptorSets) \
  X(vkCmdDispatch) \
  X(vkCmdPipelineBarrier) \
  X(vkCreateFence) \
  X(vkDestroyFence) \
  X(vkResetFences) \
  X(vkWaitForFences) \
  X(vkQueueSubmit) \
  X(vkDeviceWaitIdle)
// clang-format on

struct Api {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  PFN_vkCreateInstance vkCreateInstance = nullptr;
#define FLOOR_DECLARE(fn) PFN_##fn fn = nullptr;
  FLOOR_VK_INSTANCE_FUNCTIONS(FLOOR_DECLARE) FLOOR_VK_DEVICE_FUNCTIONS(FLOOR_DECLARE)
#undef FLOOR_DECLARE
};

Api vk;
void* g_library = nullptr;
VkInstance g_instance = VK_NULL_HANDLE;
VkPhysicalDevice g_physical = VK_NULL_HANDLE;
VkDevice g_device = VK_NULL_HANDLE;
VkQueue g_queue = VK_NULL_HANDLE;
uint32_t g_family = 0;
VkDescriptorSetLayout g_set_layout = VK_NULL_HANDLE;
VkPipelineLayout g_layout = VK_NULL_HANDLE;
VkPipeline g_empty = VK_NULL_HANDLE, g_add_one = VK_NULL_HANDLE;
VkDescriptorPool g_pool = VK_NULL_HANDLE;
VkCommandPool g_commands = VK_NULL_HANDLE;
VkFence g_fence = VK_NULL_HANDLE;

void check(VkResult r, const char* call) {
  if (r != VK_SUCCESS) throw Failure{std::string(call) + " failed: VkResult " + std::to_string(int(r))};
}
#define CHECK(x) check((x), #x)

void load() {
  if (g_library) return;
  void* lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) throw Failure{std::string("no Vulkan loader: ") + dlerror()};
  vk.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(lib, "vkGetInstanceProcAddr"));
  if (!vk.vkGetInstanceProcAddr) {
    dlclose(lib);
    throw Failure{"libvulkan.so.1 lacks vkGetInstanceProcAddr"};
  }
  vk.vkCreateInstance =
      reinterpret_cast<PFN_vkCreateInstance>(vk.vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateInstance"));
  g_library = lib;
}

void destroy_device() {
  if (!g_device) return;
  vk.vkDeviceWaitIdle(g_device);
  if (g_fence) vk.vkDestroyFence(g_device, g_fence, nullptr);
  if (g_commands) vk.vkDestroyCommandPool(g_device, g_commands, nullptr);
  if (g_pool) vk.vkDestroyDescriptorPool(g_device, g_pool, nullptr);
  if (g_empty) vk.vkDestroyPipeline(g_device, g_empty, nullptr);
  if (g_add_one) vk.vkDestroyPipeline(g_device, g_add_one, nullptr);
  if (g_layout) vk.vkDestroyPipelineLayout(g_device, g_layout, nullptr);
  if (g_set_layout) vk.vkDestroyDescriptorSetLayout(g_device, g_set_layout, nullptr);
  vk.vkDestroyDevice(g_device, nullptr);
  g_fence = VK_NULL_HANDLE;
  g_commands = VK_NULL_HANDLE;
  g_pool = VK_NULL_HANDLE;
  g_empty = g_add_one = VK_NULL_HANDLE;
  g_layout = VK_NULL_HANDLE;
  g_set_layout = VK_NULL_HANDLE;
  g_device = VK_NULL_HANDLE;
}

void release() {
  destroy_device();
  if (g_instance) vk.vkDestroyInstance(g_instance, nullptr);
  g_instance = VK_NULL_HANDLE;
}

VkPipeline pipeline(const uint32_t* words, size_t bytes) {
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = bytes;
  module_info.pCode = words;
  VkShaderModule module = VK_NULL_HANDLE;
  CHECK(vk.vkCreateShaderModule(g_device, &module_info, nullptr, &module));
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.layout = g_layout;
  VkPipeline p = VK_NULL_HANDLE;
  VkResult r = vk.vkCreateComputePipelines(g_device, VK_NULL_HANDLE, 1, &info, nullptr, &p);
  vk.vkDestroyShaderModule(g_device, module, nullptr);
  check(r, "vkCreateComputePipelines");
  return p;
}

void open_device(const std::string& hint, std::string& found) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "porta-bench vulkan floor";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  CHECK(vk.vkCreateInstance(&instance_info, nullptr, &g_instance));
#define FLOOR_LOAD(fn)                                                           \
  vk.fn = reinterpret_cast<PFN_##fn>(vk.vkGetInstanceProcAddr(g_instance, #fn)); \
  if (!vk.fn) throw Failure{"the Vulkan loader lacks " #fn};
  FLOOR_VK_INSTANCE_FUNCTIONS(FLOOR_LOAD)
#undef FLOOR_LOAD
  uint32_t count = 0;
  CHECK(vk.vkEnumeratePhysicalDevices(g_instance, &count, nullptr));
  std::vector<VkPhysicalDevice> devices(count);
  CHECK(vk.vkEnumeratePhysicalDevices(g_instance, &count, devices.data()));
  std::string seen;
  for (VkPhysicalDevice d : devices) {
    VkPhysicalDeviceProperties p;
    vk.vkGetPhysicalDeviceProperties(d, &p);
    seen += (seen.empty() ? "" : ", ") + std::string(p.deviceName);
    if (hint.empty() || hint == p.deviceName) {
      g_physical = d;
      found = p.deviceName;
      break;
    }
  }
  if (!g_physical) throw Failure{"no Vulkan device is named '" + hint + "' (found: " + seen + ")"};
  uint32_t families = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(g_physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> props(families);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(g_physical, &families, props.data());
  g_family = families;
  for (uint32_t i = 0; i < families && g_family == families; ++i)
    if (props[i].queueFlags & VK_QUEUE_COMPUTE_BIT) g_family = i;
  if (g_family == families) throw Failure{"the device has no compute queue"};
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = g_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  CHECK(vk.vkCreateDevice(g_physical, &device_info, nullptr, &g_device));
#define FLOOR_LOAD(fn)                                                       \
  vk.fn = reinterpret_cast<PFN_##fn>(vk.vkGetDeviceProcAddr(g_device, #fn)); \
  if (!vk.fn) throw Failure{"the Vulkan device lacks " #fn};
  FLOOR_VK_DEVICE_FUNCTIONS(FLOOR_LOAD)
#undef FLOOR_LOAD
  vk.vkGetDeviceQueue(g_device, g_family, 0, &g_queue);

  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                       nullptr};
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = 1;
  set_info.pBindings = &binding;
  CHECK(vk.vkCreateDescriptorSetLayout(g_device, &set_info, nullptr, &g_set_layout));
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &g_set_layout;
  CHECK(vk.vkCreatePipelineLayout(g_device, &layout_info, nullptr, &g_layout));
  g_empty = pipeline(kEmptySpirv, sizeof kEmptySpirv);
  g_add_one = pipeline(kAddOneSpirv, sizeof kAddOneSpirv);
  VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  pool_info.maxSets = 4;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  CHECK(vk.vkCreateDescriptorPool(g_device, &pool_info, nullptr, &g_pool));
  VkCommandPoolCreateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  command_info.queueFamilyIndex = g_family;
  CHECK(vk.vkCreateCommandPool(g_device, &command_info, nullptr, &g_commands));
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  CHECK(vk.vkCreateFence(g_device, &fence_info, nullptr, &g_fence));
}

int peer_open(const char* hint, char* name_out, size_t name_capacity, char* error, size_t error_capacity) {
  return answering(error, error_capacity, [&] {
    load();
    release();
    std::string found;
    try {
      open_device(hint ? hint : "", found);
    } catch (...) {
      release();
      throw;
    }
    copy_text(name_out, name_capacity, found);
    return 0;
  });
}

// A buffer in memory of the given properties (the first type that has them
// all, preferring one that also has `preferred`), bound to a descriptor set.
struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  void* mapped = nullptr;
  Buffer(VkDeviceSize bytes, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = bytes;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    CHECK(vk.vkCreateBuffer(g_device, &info, nullptr, &buffer));
    VkMemoryRequirements needs;
    vk.vkGetBufferMemoryRequirements(g_device, buffer, &needs);
    VkPhysicalDeviceMemoryProperties props;
    vk.vkGetPhysicalDeviceMemoryProperties(g_physical, &props);
    uint32_t type = props.memoryTypeCount;
    for (VkMemoryPropertyFlags want : {required | preferred, required})
      for (uint32_t i = 0; i < props.memoryTypeCount && type == props.memoryTypeCount; ++i)
        if ((needs.memoryTypeBits & (1u << i)) && (props.memoryTypes[i].propertyFlags & want) == want)
          type = i;
    if (type == props.memoryTypeCount) throw Failure{"no memory type for the buffer"};
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = needs.size;
    alloc.memoryTypeIndex = type;
    CHECK(vk.vkAllocateMemory(g_device, &alloc, nullptr, &memory));
    CHECK(vk.vkBindBufferMemory(g_device, buffer, memory, 0));
    if (required & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
      CHECK(vk.vkMapMemory(g_device, memory, 0, bytes, 0, &mapped));
    VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    set_info.descriptorPool = g_pool;
    set_info.descriptorSetCount = 1;
    set_info.pSetLayouts = &g_set_layout;
    CHECK(vk.vkAllocateDescriptorSets(g_device, &set_info, &set));
    VkDescriptorBufferInfo range{buffer, 0, bytes};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &range;
    vk.vkUpdateDescriptorSets(g_device, 1, &write, 0, nullptr);
  }
  ~Buffer() {
    vk.vkDeviceWaitIdle(g_device);
    if (set) vk.vkFreeDescriptorSets(g_device, g_pool, 1, &set);
    vk.vkDestroyBuffer(g_device, buffer, nullptr);
    if (memory) vk.vkFreeMemory(g_device, memory, nullptr);  // unmaps it
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

// A primary command buffer recorded by `record`, freed with the object.
struct Commands {
  VkCommandBuffer cb = VK_NULL_HANDLE;
  template <class Record>
  explicit Commands(Record record) {
    VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = g_commands;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    CHECK(vk.vkAllocateCommandBuffers(g_device, &info, &cb));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vk.vkBeginCommandBuffer(cb, &begin));
    record(cb);
    CHECK(vk.vkEndCommandBuffer(cb));
  }
  ~Commands() { vk.vkFreeCommandBuffers(g_device, g_commands, 1, &cb); }
  Commands(const Commands&) = delete;
  Commands& operator=(const Commands&) = delete;

  void submit_and_wait() const {
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    CHECK(vk.vkQueueSubmit(g_queue, 1, &submit, g_fence));
    CHECK(vk.vkWaitForFences(g_device, 1, &g_fence, VK_TRUE, UINT64_MAX));
    CHECK(vk.vkResetFences(g_device, 1, &g_fence));
  }
};

void barrier(VkCommandBuffer cb, VkPipelineStageFlags to_stage, VkAccessFlags to_access) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  b.dstAccessMask = to_access;
  vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, to_stage, 0, 1, &b, 0, nullptr, 0,
                          nullptr);
}

void bind(VkCommandBuffer cb, VkPipeline p, const Buffer& data) {
  vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p);
  vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, g_layout, 0, 1, &data.set, 0, nullptr);
}

void round_trip(uint64_t bytes, uint32_t warmup, uint32_t runs, double* samples) {
  const uint32_t floats = uint32_t(bytes / sizeof(float));
  if (floats == 0 || floats % 64) throw Failure{"round_trip takes a multiple of 64 floats"};
  Buffer data(bytes, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
              VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Commands commands([&](VkCommandBuffer cb) {
    bind(cb, g_add_one, data);
    vk.vkCmdDispatch(cb, floats / 64, 1, 1);
    barrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  });
  std::vector<float> in(floats), out(floats);
  float next = 0;
  time_host_clock(warmup, runs, samples, [&] {
    std::fill(in.begin(), in.end(), next);
    std::memcpy(data.mapped, in.data(), bytes);  // vkQueueSubmit makes host writes visible
    commands.submit_and_wait();
    std::memcpy(out.data(), data.mapped, bytes);
    next = next < 1e6f ? next + 1 : 0;
  });
  if (out[0] != in[0] + 1 || out[floats - 1] != in[0] + 1)
    throw Failure{"the round trip read back a wrong answer"};
}

void replay(uint64_t dispatches, uint32_t warmup, uint32_t runs, double* samples) {
  Buffer data(256, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Commands commands([&](VkCommandBuffer cb) {
    bind(cb, g_empty, data);
    for (uint64_t i = 0; i < dispatches; ++i) {
      vk.vkCmdDispatch(cb, 1, 1, 1);
      barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
  });
  time_host_clock(warmup, runs, samples, [&] { commands.submit_and_wait(); });
}

int peer_time(const char* op, const uint64_t dims[3], uint32_t warmup, uint32_t runs, double* samples,
              char* library, size_t library_capacity, char* error, size_t error_capacity) {
  const std::string name = op;
  return answering(error, error_capacity, [&] {
    if (name == "round_trip") {
      copy_text(library, library_capacity,
                "Vulkan host-visible buffer, recorded dispatch, submit + fence wait");
      round_trip(dims[0], warmup, runs, samples);
    } else if (name == "replay") {
      copy_text(library, library_capacity,
                "Vulkan command buffer of dispatches + barriers, submit + fence wait");
      replay(dims[0], warmup, runs, samples);
    } else {
      return PORTA_BENCH_PEER_UNSUPPORTED;
    }
    vk.vkDeviceWaitIdle(g_device);
    return 0;
  });
}

void peer_close() { release(); }

const porta_bench_peer kPeer = {PORTA_BENCH_PEER_VERSION, "vulkan-floor", peer_open, peer_time, peer_close};

}  // namespace

PORTA_BENCH_PEER_EXPORT(kPeer)
