// porta/interop.h with a framework's Vulkan objects on porta's VkDevice: host
// memory imported through VK_EXT_external_memory_host and used in place, a
// stream over porta's VkQueue that waits for and signals the framework's
// semaphores (timeline and binary) in queue order, the work a stream
// destroyed before the framework's signal leaves behind, and the refusals.
// Runs on the Vulkan device porta opens (lavapipe here).
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "left_work.hpp"
#include "porta/interop.hpp"
#include "porta/robust.h"

namespace {

VkSemaphore make_semaphore(VkDevice device, bool timeline) {
  VkSemaphoreTypeCreateInfo type{};
  type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  if (timeline) info.pNext = &type;
  VkSemaphore s = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateSemaphore(device, &info, nullptr, &s), VK_SUCCESS);
  return s;
}

// A stream's wait for `semaphore` to reach `value` (0: a binary semaphore).
auto waits_for(VkSemaphore semaphore, uint64_t value) {
  return [=](porta::Stream& s) {
    porta::wait_native_event(s, porta_vk_semaphore{0, reinterpret_cast<uint64_t>(semaphore), value});
  };
}

struct VulkanDevice : ::testing::Test {
  void SetUp() override {
    try {
      dev = porta::open("vulkan");
    } catch (const porta::Error& e) {
      if (e.status() != PORTA_ERROR_UNAVAILABLE && e.status() != PORTA_ERROR_NOT_FOUND) throw;
      GTEST_SKIP() << "no Vulkan device here: " << e.what();
    }
    nd = porta::native(dev);
    device = static_cast<VkDevice>(nd.vk_device);
  }
  VkSemaphore semaphore(bool timeline) { return make_semaphore(device, timeline); }
  uint64_t counter(VkSemaphore s) {
    uint64_t v = ~0ull;
    EXPECT_EQ(vkGetSemaphoreCounterValue(device, s, &v), VK_SUCCESS);
    return v;
  }
  porta::Device dev;
  porta_native_device nd{};
  VkDevice device = VK_NULL_HANDLE;
};

// Page-aligned host memory freed by free().
struct PageMemory {
  explicit PageMemory(size_t bytes) : data(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096)) {}
  ~PageMemory() { std::free(data); }
  float* floats() const { return static_cast<float*>(data); }
  void* data;
};

TEST_F(VulkanDevice, HostMemoryIsReadAndWrittenInPlace) {
  const size_t n = 3000;  // 12000 bytes: not whole pages
  PageMemory mem(n * 4);
  for (size_t i = 0; i < n; ++i) mem.floats()[i] = float(i);
  porta::Buffer b = porta::import_host(dev, mem.data, n * 4);
  EXPECT_EQ(b.size(), n * 4);
  const porta_native_memory m = porta::native(b);
  EXPECT_EQ(m.kind, PORTA_NATIVE_MEMORY_VK_BUFFER);
  EXPECT_NE(m.vk_buffer, 0u);
  EXPECT_NE(m.vk_memory, 0u);
  EXPECT_EQ(m.host_pointer, mem.data);
  void* p = nullptr;
  ASSERT_EQ(porta_buffer_host_pointer(b.handle(), &p), PORTA_SUCCESS) << porta_last_error();
  EXPECT_EQ(p, mem.data);

  // The kernel reads the host's values and its writes land in the host's memory.
  porta::Stream s = dev.stream();
  porta::ops::scale(s, porta::Tensor(b, {n}), 2.0f, porta::Tensor(b, {n}));
  s.sync();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(mem.floats()[i], 2.0f * float(i)) << i;
  // What the host writes afterwards is what the next kernel reads.
  mem.floats()[7] = 100.0f;
  porta::ops::scale(s, porta::Tensor(b, {n}), 0.5f, porta::Tensor(b, {n}));
  s.sync();
  EXPECT_EQ(mem.floats()[7], 50.0f);
  EXPECT_EQ(mem.floats()[n - 1], float(n - 1));
  // A copy between porta's own buffer and the imported one.
  porta::Buffer own = dev.buffer(n * 4);
  s.copy(b, own, n * 4);
  std::vector<float> back(n);
  s.read(own, back);
  s.sync();
  EXPECT_EQ(back[7], 50.0f);
  EXPECT_EQ(back[n - 1], float(n - 1));
}

TEST_F(VulkanDevice, HostMemoryOffTheImportAlignmentIsRefused) {
  PageMemory mem(8192);
  porta_buffer b = nullptr;
  // 16-byte aligned (porta's own rule holds) but not on the page.
  EXPECT_EQ(porta_buffer_import_host(dev.handle(), static_cast<char*>(mem.data) + 64, 1024, &b),
            PORTA_ERROR_UNSUPPORTED);
  const std::string message = porta_last_error();
  EXPECT_NE(message.find("minImportedHostPointerAlignment = "), std::string::npos) << message;
  EXPECT_NE(message.find("vulkan"), std::string::npos) << message;
  EXPECT_EQ(b, nullptr);
}

// With PORTA_VULKAN_DISABLE=host-import (its own ctest entry) the device is
// opened without the extension and refuses host memory, naming it.
TEST_F(VulkanDevice, HostImportFollowsTheExtension) {
  const char* disabled = std::getenv("PORTA_VULKAN_DISABLE");
  const bool without = disabled && std::strstr(disabled, "host-import");
  PageMemory mem(4096);
  porta_buffer b = nullptr;
  const porta_status st = porta_buffer_import_host(dev.handle(), mem.data, 4096, &b);
  if (!without) {
    EXPECT_EQ(st, PORTA_SUCCESS) << porta_last_error();
    porta_buffer_destroy(b);
    return;
  }
  EXPECT_EQ(st, PORTA_ERROR_UNSUPPORTED);
  const std::string message = porta_last_error();
  EXPECT_NE(message.find("no VK_EXT_external_memory_host"), std::string::npos) << message;
  EXPECT_EQ(b, nullptr);
}

TEST_F(VulkanDevice, WrappedQueueWaitsForAndSignalsATimelineSemaphore) {
  VkSemaphore sem = semaphore(true);
  std::vector<float> ones(256, 1.0f), got(256, 0.0f);
  {
    porta::Stream s = porta::wrap_stream(dev, nd.vk_queue);
    EXPECT_EQ(porta::native(s), nd.vk_queue);
    porta::Buffer b = dev.upload(ones);
    porta::wait_native_event(s, porta_vk_semaphore{0, reinterpret_cast<uint64_t>(sem), 1});
    porta::ops::scale(s, porta::Tensor(b, {256}), 5.0f, porta::Tensor(b, {256}));
    porta::signal_native_event(s, porta_vk_semaphore{0, reinterpret_cast<uint64_t>(sem), 2});
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(counter(sem), 0u) << "porta's work ran before the framework's signal";
    VkSemaphoreSignalInfo signal{};
    signal.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO;
    signal.semaphore = sem;
    signal.value = 1;  // the framework's work is done
    ASSERT_EQ(vkSignalSemaphore(device, &signal), VK_SUCCESS);
    VkSemaphoreWaitInfo wait{};
    wait.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO;
    const uint64_t two = 2;
    wait.semaphoreCount = 1;
    wait.pSemaphores = &sem;
    wait.pValues = &two;
    ASSERT_EQ(vkWaitSemaphores(device, &wait, 10ull * 1000 * 1000 * 1000), VK_SUCCESS);
    s.read(b, got);
    s.sync();
  }
  EXPECT_EQ(got[0], 5.0f);
  EXPECT_EQ(got[255], 5.0f);
  vkDestroySemaphore(device, sem, nullptr);
}

// Binary semaphores: a wait must follow its signal's submission (Vulkan's
// rule), so this checks the binary path end to end under the validation
// layer (the ctest entry fails on any of its messages); the timeline test
// above is the one that shows a wait holding work back.
TEST_F(VulkanDevice, BinarySemaphoreFromOneStreamToAnother) {
  VkSemaphore sem = semaphore(false);
  std::vector<float> ones(1024, 1.0f), got(1024, 0.0f);
  porta::Buffer b = dev.upload(ones), c = dev.upload(ones);
  porta::Stream first = dev.stream(), second = dev.stream();
  porta::ops::scale(first, porta::Tensor(b, {1024}), 3.0f, porta::Tensor(b, {1024}));
  porta::signal_native_event(first, porta_vk_semaphore{0, reinterpret_cast<uint64_t>(sem), 0});
  // The second stream's kernel follows the first's through the semaphore.
  porta::wait_native_event(second, porta_vk_semaphore{0, reinterpret_cast<uint64_t>(sem), 0});
  porta::ops::add(second, porta::Tensor(b, {1024}), porta::Tensor(c, {1024}), porta::Tensor(b, {1024}));
  second.sync();  // submits the wait and the add after it
  first.sync();
  second.read(b, got);
  second.sync();
  EXPECT_EQ(got[0], 4.0f) << "3 * 1 + 1: the add ran after the scale";
  EXPECT_EQ(got[1023], 4.0f);
  vkDestroySemaphore(device, sem, nullptr);
}

TEST_F(VulkanDevice, ForeignQueuesAndBadSemaphoresAreRefused) {
  int not_a_queue = 0;
  porta_stream s = nullptr;
  EXPECT_EQ(porta_stream_wrap_native(dev.handle(), &not_a_queue, &s), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("is not porta's queue"), std::string::npos)
      << porta_last_error();
  EXPECT_EQ(s, nullptr);
  porta::Stream own = dev.stream();
  porta_vk_semaphore point{};
  point.struct_size = 4;
  EXPECT_EQ(porta_stream_wait_native_event(own.handle(), &point), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("sizeof(porta_vk_semaphore)"), std::string::npos)
      << porta_last_error();
  point.struct_size = sizeof point;
  EXPECT_EQ(porta_stream_signal_native_event(own.handle(), &point), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("semaphore is null"), std::string::npos)
      << porta_last_error();
  own.sync();  // nothing was queued by the refusals
}

// The stream's destruction does not wait for the framework's signal (before,
// it waited until the device's timeout and then lost the device); the memory
// the left work uses is released only after that work has run.
TEST_F(VulkanDevice, LeftWorkDoesNotHoldUpStreamDestroy) {
  VkSemaphore sem = semaphore(true);
  left_work::check_left_work(
      dev,
      [&](porta::Stream& s) {
        porta::wait_native_event(s, porta_vk_semaphore{0, reinterpret_cast<uint64_t>(sem), 1});
      },
      [&] {
        VkSemaphoreSignalInfo signal{};
        signal.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO;
        signal.semaphore = sem;
        signal.value = 1;
        ASSERT_EQ(vkSignalSemaphore(device, &signal), VK_SUCCESS);
      });
  vkDestroySemaphore(device, sem, nullptr);
}

// Closing a device whose left work waits for a timeline semaphore that never
// comes: porta signals it (the semaphore dies with porta's VkDevice), the work
// drains and the device closes. (The semaphore outlives its device here, which
// the validation layer reports: this test's entry runs without it.)
TEST(VulkanClose, AtCloseATimelineSemaphoreIsSignalled) {
  using namespace left_work;
  porta::Device own;
  try {
    own = porta::open("vulkan");
  } catch (const porta::Error& e) {
    GTEST_SKIP() << "no Vulkan device here: " << e.what();
  }
  const porta_native_device nd = porta::native(own);
  VkSemaphore sem = make_semaphore(static_cast<VkDevice>(nd.vk_device), true);
  ASSERT_NE(sem, VK_NULL_HANDLE);
  ReleasedMemory memory(256);
  double took = 0;
  const std::string said = close_with_left_work(own, memory, waits_for(sem, 7), took);
  EXPECT_LT(took, 5.0);
  EXPECT_TRUE(memory.released.load()) << said;
  EXPECT_EQ(memory.data[0], 2.0f) << "the work ran once porta signalled the semaphore";
  EXPECT_NE(said.find("porta signalled it"), std::string::npos) << said;
}

// Closing a device whose left work waits for a binary semaphore that never
// comes: the framework's own submission to porta's queue signals it after a
// wait porta knows nothing of. The host cannot signal a binary semaphore, so
// the close waits its bounded time (0.5 s here), names the semaphore and
// leaves the device open rather than free memory under work that may still
// run; once the framework's wait is met the left work runs.
TEST(VulkanClose, AtCloseABinarySemaphoreIsNamedAndTheDeviceLeft) {
  using namespace left_work;
  porta::Device own;
  try {
    own = porta::open("vulkan", porta::DeviceOptions{PORTA_ROBUST_DEFAULT, 0.5});
  } catch (const porta::Error& e) {
    GTEST_SKIP() << "no Vulkan device here: " << e.what();
  }
  const porta_native_device nd = porta::native(own);
  VkPhysicalDeviceDriverProperties driver{};
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &driver;
  vkGetPhysicalDeviceProperties2(static_cast<VkPhysicalDevice>(nd.vk_physical_device), &properties);
  if (driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE)
    GTEST_SKIP() << "lavapipe's vkQueueSubmit blocks the submitting thread until a binary semaphore it "
                    "waits for is signalled, so porta's own submit could never return here";
  VkDevice vk = static_cast<VkDevice>(nd.vk_device);
  VkQueue queue = static_cast<VkQueue>(nd.vk_queue);
  VkSemaphore binary = make_semaphore(vk, false), gate = make_semaphore(vk, true);
  ASSERT_TRUE(binary && gate);
  // The framework's submission: wait for its gate (timeline value 1), then
  // signal the binary semaphore (a signal submitted before porta's wait, as
  // Vulkan requires).
  const uint64_t gate_value = 1, unused = 0;
  VkTimelineSemaphoreSubmitInfo values{};
  values.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO;
  values.waitSemaphoreValueCount = 1;
  values.pWaitSemaphoreValues = &gate_value;
  values.signalSemaphoreValueCount = 1;
  values.pSignalSemaphoreValues = &unused;
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.pNext = &values;
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &gate;
  submit.pWaitDstStageMask = &stage;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &binary;
  ASSERT_EQ(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
  ReleasedMemory memory(256);
  memory.leaked = true;  // porta's left device holds it for good
  double took = 0;
  const std::string said = close_with_left_work(own, memory, waits_for(binary, 0), took);
  expect_left_open(took, said, memory);
  char handle[32];
  std::snprintf(handle, sizeof handle, "0x%llx",
                static_cast<unsigned long long>(reinterpret_cast<uint64_t>(binary)));
  EXPECT_NE(said.find("binary semaphore"), std::string::npos) << said;
  EXPECT_NE(said.find(handle), std::string::npos) << said;
  // The framework's gate opens at last: its signal, then porta's left work.
  VkSemaphoreSignalInfo open{};
  open.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO;
  open.semaphore = gate;
  open.value = 1;
  ASSERT_EQ(vkSignalSemaphore(vk, &open), VK_SUCCESS);
  expect_left_work_runs(memory);
}

}  // namespace
