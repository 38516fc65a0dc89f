// porta_kernel_create (descriptor-based kernel creation, PORTA_KERNEL_FLAG_REUSE
// by source or by reuse_key) and the owners of streams and buffers
// (porta_stream_get_device, porta_buffer_get_device, porta_buffer_check_device,
// porta_device_equal): what the ops, and any framework's own ops, are built on.
#include <cstddef>
#include <cstring>
#include <iterator>

#include "test_support.hpp"

namespace {

using porta::test::open_under_test;

const char* kAddOne = R"(#version 450
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) buffer Data { float v[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) v[i] += 1.0;
}
)";

porta_kernel_descriptor glsl_descriptor(const char* text, const porta_spec_constant* specs, uint32_t count,
                                        uint32_t flags) {
  porta_kernel_descriptor d{};
  d.struct_size = sizeof d;
  d.source_kind = PORTA_KERNEL_SOURCE_GLSL;
  d.source = text;
  d.source_size = std::strlen(text);
  d.name = "add_one";
  d.specs = specs;
  d.spec_count = count;
  d.flags = flags;
  return d;
}

std::vector<float> run_add_one(porta::Device& dev, const porta::Kernel& kernel, uint32_t n) {
  porta::Buffer b = dev.upload(std::vector<float>(n, 1.0f));
  porta::Stream s = dev.stream();
  const uint32_t wg = kernel.workgroup_size()[0];
  s.dispatch(kernel, {(n + wg - 1) / wg, 1, 1}, {b}, n);
  s.sync();
  return b.to_vector<float>();
}

TEST(KernelCreate, GlslAndSpirvDescriptorsMakeWorkingKernels) {
  porta::Device dev = open_under_test();
  const porta_spec_constant specs[] = {{0, 32}};
  porta::Kernel from_glsl = dev.kernel(glsl_descriptor(kAddOne, specs, 1, 0));
  EXPECT_EQ(from_glsl.workgroup_size()[0], 32u);
  EXPECT_EQ(from_glsl.buffer_count(), 1u);
  for (float v : run_add_one(dev, from_glsl, 100)) EXPECT_EQ(v, 2.0f);
}

TEST(KernelCreate, ReuseHandsOutOneKernelPerSourceAndConstants) {
  porta::Device dev = open_under_test();
  const porta_spec_constant a[] = {{0, 16}}, b[] = {{0, 64}};
  porta_kernel k1 = nullptr, k2 = nullptr, k3 = nullptr;
  const porta_kernel_descriptor d1 = glsl_descriptor(kAddOne, a, 1, PORTA_KERNEL_FLAG_REUSE);
  const porta_kernel_descriptor d3 = glsl_descriptor(kAddOne, b, 1, PORTA_KERNEL_FLAG_REUSE);
  ASSERT_EQ(porta_kernel_create(dev.handle(), &d1, &k1), PORTA_SUCCESS) << porta_last_error();
  ASSERT_EQ(porta_kernel_create(dev.handle(), &d1, &k2), PORTA_SUCCESS) << porta_last_error();
  ASSERT_EQ(porta_kernel_create(dev.handle(), &d3, &k3), PORTA_SUCCESS) << porta_last_error();
  // Each call gives a handle of its own, destroyed on its own.
  EXPECT_NE(k1, k2);
  porta::Kernel first(k1), second(k2), other(k3);
  uint32_t size[3];
  porta_kernel_workgroup_size(k2, size);
  EXPECT_EQ(size[0], 16u);
  porta_kernel_workgroup_size(k3, size);
  EXPECT_EQ(size[0], 64u);
  first = porta::Kernel();  // the device keeps the kernel; the other handle still works
  for (float v : run_add_one(dev, second, 50)) EXPECT_EQ(v, 2.0f);
  for (float v : run_add_one(dev, other, 50)) EXPECT_EQ(v, 2.0f);
}

porta_kernel_descriptor keyed(const char* key, const char* text, const porta_spec_constant* specs,
                              uint32_t count) {
  porta_kernel_descriptor d = glsl_descriptor(text, specs, count, PORTA_KERNEL_FLAG_REUSE);
  d.reuse_key = key;
  return d;
}

// Not a SPIR-V module: building it fails, so a call that succeeds with it as
// its source found its kernel without building (or reading) it.
const uint32_t kNotSpirv[] = {0x12345678u, 1u, 2u, 3u, 4u, 5u};

// A reusable kernel from kNotSpirv, under `key` (may be NULL).
porta_kernel_descriptor not_spirv(const char* key, const porta_spec_constant* specs, uint32_t count) {
  porta_kernel_descriptor d = keyed(key, kAddOne, specs, count);
  d.source_kind = PORTA_KERNEL_SOURCE_SPIRV;
  d.source = kNotSpirv;
  d.source_size = sizeof kNotSpirv;
  return d;
}

TEST(KernelCreate, AReuseKeyFindsTheKernelWithoutReadingTheSource) {
  porta::Device dev = open_under_test();
  const porta_spec_constant sixteen[] = {{0, 16}}, sixty_four[] = {{0, 64}};
  porta::Kernel built = dev.kernel(keyed("test.add_one", kAddOne, sixteen, 1));
  EXPECT_EQ(built.workgroup_size()[0], 16u);
  // The same key and constants: the kernel built above, whatever the source says.
  porta::Kernel again = dev.kernel(not_spirv("test.add_one", sixteen, 1));
  EXPECT_EQ(again.workgroup_size()[0], 16u);
  for (float v : run_add_one(dev, again, 40)) EXPECT_EQ(v, 2.0f);
  // Other constants under the key are another kernel, built from the source given.
  porta_kernel k = nullptr;
  const porta_kernel_descriptor unbuilt = not_spirv("test.add_one", sixty_four, 1);
  EXPECT_EQ(porta_kernel_create(dev.handle(), &unbuilt, &k), PORTA_ERROR_INVALID_KERNEL);
  EXPECT_EQ(k, nullptr);
  porta::Kernel wider = dev.kernel(keyed("test.add_one", kAddOne, sixty_four, 1));
  EXPECT_EQ(wider.workgroup_size()[0], 64u);
  // Another key is another kernel; so is another device.
  EXPECT_EQ(porta_kernel_create(dev.handle(), &unbuilt, &k), PORTA_SUCCESS) << porta_last_error();
  porta_kernel_destroy(k);
  const porta_kernel_descriptor other_key = not_spirv("test.other", sixteen, 1);
  EXPECT_EQ(porta_kernel_create(dev.handle(), &other_key, &k), PORTA_ERROR_INVALID_KERNEL);
  porta::Device other = open_under_test();
  const porta_kernel_descriptor same_key = not_spirv("test.add_one", sixteen, 1);
  EXPECT_EQ(porta_kernel_create(other.handle(), &same_key, &k), PORTA_ERROR_INVALID_KERNEL);
}

TEST(KernelCreate, AReuseKeyMatchesConstantsInAnyOrder) {
  porta::Device dev = open_under_test();
  const char* two_constants = R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float kAdd = 1.0;
layout(std430, binding = 0) buffer Data { float v[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) v[i] += kAdd;
}
)";
  const float three = 3.0f;
  uint32_t three_bits = 0;
  std::memcpy(&three_bits, &three, sizeof three_bits);
  const porta_spec_constant in_order[] = {{0, 8}, {1, three_bits}}, reversed[] = {{1, three_bits}, {0, 8}};
  porta::Kernel built = dev.kernel(keyed("test.add_constant", two_constants, in_order, 2));
  porta::Kernel found = dev.kernel(not_spirv("test.add_constant", reversed, 2));
  EXPECT_EQ(found.workgroup_size()[0], 8u);
  for (float v : run_add_one(dev, found, 20)) EXPECT_EQ(v, 4.0f);
}

TEST(KernelCreate, CxxReusedKernelTakesAKey) {
  porta::Device dev = open_under_test();
  porta::Kernel built = dev.reused_kernel("test.cxx_add_one", porta::glsl(kAddOne, "add_one"), {{0u, 8u}});
  porta::Kernel found = dev.reused_kernel(
      "test.cxx_add_one", porta::spirv({std::begin(kNotSpirv), std::end(kNotSpirv)}, "add_one"), {{0u, 8u}});
  EXPECT_EQ(found.workgroup_size()[0], 8u);
  for (float v : run_add_one(dev, found, 12)) EXPECT_EQ(v, 2.0f);
  EXPECT_THROW(
      dev.reused_kernel(porta::spirv({std::begin(kNotSpirv), std::end(kNotSpirv)}, "add_one"), {{0u, 8u}}),
      porta::Error);
}

TEST(KernelCreate, ReuseBySourceIgnoresKeyedKernels) {
  porta::Device dev = open_under_test();
  porta::Kernel built = dev.kernel(keyed("add_one", kAddOne, nullptr, 0));
  // Without a key the table is searched by source (not by a key like the
  // name): this source was never built.
  porta_kernel k = nullptr;
  porta_kernel_descriptor by_source = not_spirv(nullptr, nullptr, 0);
  EXPECT_EQ(porta_kernel_create(dev.handle(), &by_source, &k), PORTA_ERROR_INVALID_KERNEL);
  // An empty key is no key.
  by_source.reuse_key = "";
  EXPECT_EQ(porta_kernel_create(dev.handle(), &by_source, &k), PORTA_ERROR_INVALID_KERNEL);
  EXPECT_EQ(k, nullptr);
}

TEST(KernelCreate, AReuseKeyNeedsTheReuseFlag) {
  porta::Device dev = open_under_test();
  porta_kernel_descriptor d = glsl_descriptor(kAddOne, nullptr, 0, 0);
  d.reuse_key = "test.add_one";
  porta_kernel k = nullptr;
  EXPECT_EQ(porta_kernel_create(dev.handle(), &d, &k), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(
      std::string(porta_last_error()).find("reuse_key 'test.add_one' is set but PORTA_KERNEL_FLAG_REUSE"),
      std::string::npos)
      << porta_last_error();
  EXPECT_EQ(k, nullptr);
}

TEST(KernelCreate, ADescriptorFromBeforeReuseKeysHasNone) {
  porta::Device dev = open_under_test();
  // A caller compiled before reuse_key existed: its struct ends at flags, so
  // whatever follows in memory is not read.
  porta_kernel_descriptor d = glsl_descriptor(kAddOne, nullptr, 0, 0);
  d.struct_size = offsetof(porta_kernel_descriptor, reuse_key);
  d.reuse_key = "past the caller's struct";
  porta_kernel k = nullptr;
  ASSERT_EQ(porta_kernel_create(dev.handle(), &d, &k), PORTA_SUCCESS) << porta_last_error();
  porta_kernel_destroy(k);
}

TEST(KernelCreate, AReusedKernelKeepsItsDeviceAlive) {
  porta::Kernel kernel;
  porta::Buffer buffer;
  {
    porta::Device dev = open_under_test();
    kernel = dev.reused_kernel(porta::glsl(kAddOne, "add_one"), {{0u, 8u}});
    buffer = dev.upload(std::vector<float>(8, 1.0f));
  }
  // The device handle is gone; the kernel's handle still holds the device.
  porta::Device dev = buffer.device();
  porta::Stream s = dev.stream();
  s.dispatch(kernel, {1, 1, 1}, {buffer}, 8u);
  s.sync();
  for (float v : buffer.to_vector<float>()) EXPECT_EQ(v, 2.0f);
}

TEST(KernelCreate, AReusedKernelAloneOutlivesItsDevice) {
  porta::Kernel kernel;
  {
    porta::Device dev = open_under_test();
    kernel = dev.reused_kernel(porta::glsl(kAddOne, "add_one"));
  }
  EXPECT_EQ(kernel.buffer_count(), 1u);
  kernel = porta::Kernel();  // the last handle: the device closes with it
}

TEST(KernelCreate, RefusesBadDescriptors) {
  porta::Device dev = open_under_test();
  porta_kernel k = nullptr;
  EXPECT_EQ(porta_kernel_create(dev.handle(), nullptr, &k), PORTA_ERROR_INVALID_ARGUMENT);
  porta_kernel_descriptor d = glsl_descriptor(kAddOne, nullptr, 0, 0);
  d.struct_size = 8;
  EXPECT_EQ(porta_kernel_create(dev.handle(), &d, &k), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(porta_last_error()).find("struct_size"), std::string::npos) << porta_last_error();
  d = glsl_descriptor(kAddOne, nullptr, 0, 1u << 7);
  EXPECT_EQ(porta_kernel_create(dev.handle(), &d, &k), PORTA_ERROR_INVALID_ARGUMENT);
  d = glsl_descriptor(kAddOne, nullptr, 0, 0);
  d.source_kind = PORTA_KERNEL_SOURCE_SPIRV;
  d.source_size = 6;  // not whole words
  EXPECT_EQ(porta_kernel_create(dev.handle(), &d, &k), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(k, nullptr);
}

TEST(KernelCreate, ALargerDescriptorIsAcceptedOnlyWithItsNewFieldsZero) {
  porta::Device dev = open_under_test();
  struct Later {
    porta_kernel_descriptor known;
    uint64_t added;
  } later{};
  later.known = glsl_descriptor(kAddOne, nullptr, 0, 0);
  later.known.struct_size = sizeof later;
  porta_kernel k = nullptr;
  ASSERT_EQ(porta_kernel_create(dev.handle(), &later.known, &k), PORTA_SUCCESS) << porta_last_error();
  porta_kernel_destroy(k);
  later.added = 1;
  EXPECT_EQ(porta_kernel_create(dev.handle(), &later.known, &k), PORTA_ERROR_UNSUPPORTED);
}

TEST(DeviceOf, StreamsAndBuffersNameTheirDevice) {
  porta::Device dev = open_under_test();
  porta::Device other = open_under_test();
  porta::Stream s = dev.stream();
  porta::Buffer b = other.buffer(16);
  EXPECT_TRUE(s.device() == dev);
  EXPECT_TRUE(b.device() == other);
  // Two opens of one backend and index are two devices.
  EXPECT_TRUE(b.device() != dev);
  EXPECT_EQ(s.device().info().index, dev.info().index);
  porta_device d = nullptr;
  EXPECT_EQ(porta_stream_get_device(nullptr, &d), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(porta_buffer_get_device(b.handle(), nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_device_equal(dev.handle(), nullptr), 0);
}

TEST(DeviceOf, CheckDeviceTellsABufferOfTheDeviceFromOthers) {
  porta::Device dev = open_under_test();
  porta::Device other = open_under_test();
  porta::Buffer mine = dev.buffer(16), theirs = other.buffer(16);
  EXPECT_EQ(porta_buffer_check_device(mine.handle(), dev.handle(), nullptr), PORTA_SUCCESS)
      << porta_last_error();
  // Any handle of the device will do; the size comes with the answer.
  porta::Device same = mine.device();
  uint64_t size = 0;
  EXPECT_EQ(porta_buffer_check_device(mine.handle(), same.handle(), &size), PORTA_SUCCESS)
      << porta_last_error();
  EXPECT_EQ(size, 16u);
  // A refused buffer leaves the size alone.
  size = 7;
  EXPECT_EQ(porta_buffer_check_device(theirs.handle(), dev.handle(), &size), PORTA_ERROR_INVALID_HANDLE);
  const std::string message = porta_last_error();
  EXPECT_NE(message.find("porta_buffer_check_device: the buffer belongs to "), std::string::npos) << message;
  EXPECT_NE(message.find(", but the device given is "), std::string::npos) << message;
  EXPECT_EQ(size, 7u);
  EXPECT_EQ(porta_buffer_check_device(nullptr, dev.handle(), &size), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_NE(std::string(porta_last_error()).find("buffer handle is null"), std::string::npos)
      << porta_last_error();
  EXPECT_EQ(porta_buffer_check_device(mine.handle(), nullptr, &size), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_NE(std::string(porta_last_error()).find("device handle is null"), std::string::npos)
      << porta_last_error();
  porta_buffer gone = nullptr;
  ASSERT_EQ(porta_buffer_create(dev.handle(), 16, &gone), PORTA_SUCCESS);
  porta_buffer_destroy(gone);
  EXPECT_EQ(porta_buffer_check_device(gone, dev.handle(), &size), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_NE(std::string(porta_last_error()).find("is not live"), std::string::npos) << porta_last_error();
}

}  // namespace
