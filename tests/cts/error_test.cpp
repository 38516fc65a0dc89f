// What only the backend's runtime can find out, reported once through
// set_error with a message that names the backend; and the device's limits
// used in full.
#include <algorithm>
#include <cstring>

#include "cts.hpp"

namespace porta::test {
namespace {

namespace k = kernels;

PORTA_CTS_SUITE(Errors);
PORTA_CTS_SUITE(Limits);

// Translated source the backend's compiler rejects: PORTA_ERROR_COMPILE,
// reported once, with the kernel's name and the compiler's own log.
TEST_P(Errors, CompilerRejectionCarriesTheLog) {
  if (language() == PORTA_LANGUAGE_SPIRV)
    GTEST_SKIP() << api().name << " takes SPIR-V: libporta validates it, and the plugin compiles no source";
  auto broken = glsl(k::kIncrement, "broken_kernel");
  broken->set_source(broken->source() + "\n#error porta_cts_deliberate_error\n");
  TestHost::reset_errors();
  porta_plugin_kernel kern = nullptr;
  EXPECT_EQ(try_kernel(broken->desc(), &kern), PORTA_ERROR_COMPILE);
  EXPECT_EQ(kern, nullptr);
  EXPECT_EQ(TestHost::error_count(), 1);
  EXPECT_EQ(TestHost::last_status(), PORTA_ERROR_COMPILE);
  const std::string e = error();
  EXPECT_NE(e.find("broken_kernel"), std::string::npos) << e;
  EXPECT_NE(e.find("porta_cts_deliberate_error"), std::string::npos) << e;  // the compiler's log
  EXPECT_NE(e.find(api().name), std::string::npos) << e;
  // The device goes on working.
  EXPECT_NE(kernel(*glsl(k::kIncrement, "increment")), nullptr);
}

// More memory than any device has: refused with OUT_OF_MEMORY or UNSUPPORTED,
// reported once, naming the backend and the size — or, where the runtime
// reserves memory only at first use (NVIDIA's OpenCL), accepted without an
// error and released again. Either way the device goes on working. The one
// call of the suite beyond what libporta passes (it refuses sizes above
// max_buffer_bytes itself): the runtime's own refusal, which a size within
// the limits meets only when memory runs out, must come back the same way.
TEST_P(Errors, AbsurdAllocationFailsCleanly) {
  const uint64_t size = 1ull << 60;
  TestHost::reset_errors();
  porta_plugin_buffer b = nullptr;
  const porta_status status = api().buffer_create(device, size, &b);
  if (status == PORTA_SUCCESS) {
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(TestHost::error_count(), 0);
    std::printf("the runtime accepted %llu bytes (reserved at first use); released\n",
                static_cast<unsigned long long>(size));
    api().buffer_destroy(b);
  } else {
    EXPECT_TRUE(status == PORTA_ERROR_OUT_OF_MEMORY || status == PORTA_ERROR_UNSUPPORTED) << status;
    EXPECT_EQ(b, nullptr);
    EXPECT_EQ(TestHost::error_count(), 1);
    EXPECT_EQ(TestHost::last_status(), status);
    const std::string e = error();
    EXPECT_NE(e.find(api().name), std::string::npos) << e;
    EXPECT_NE(e.find(std::to_string(size)), std::string::npos) << e;
    std::printf("%s\n", e.c_str());
  }
  porta_plugin_buffer works = buffer(4096);
  uint32_t v = 42, back = 0;
  write(works, &v, 4);
  read(works, &back, 4);
  sync();
  EXPECT_EQ(back, 42u);
}

// A group of the largest size the device allows, in x, runs as one group:
// every item sees what its mirror image stored before a barrier.
// A runtime may allow a compiled kernel fewer items than the device's limit
// (OpenCL's CL_KERNEL_WORK_GROUP_SIZE, which only the runtime knows): then
// kernel creation refuses with UNSUPPORTED, naming the work-group, and the
// test halves the size until the kernel is made, and runs it there.
TEST_P(Limits, DispatchAtTheLargestWorkGroup) {
  uint32_t size = std::min(info.limits.max_workgroup_invocations, info.limits.max_workgroup_size[0]);
  porta_plugin_kernel kern = nullptr;
  for (;;) {
    auto mirror = glsl(k::kMaxGroup, "max_group", {{0, size}});
    ASSERT_EQ(mirror->desc().workgroup_size[0], size);
    if (mirror->desc().shared_memory_bytes > info.limits.max_shared_memory_bytes)
      GTEST_SKIP() << size << " items need more shared memory than the device has";
    TestHost::reset_errors();
    const porta_status status = try_kernel(mirror->desc(), &kern);
    if (status == PORTA_SUCCESS) break;
    ASSERT_EQ(status, PORTA_ERROR_UNSUPPORTED) << error();
    ASSERT_NE(error().find("work-group"), std::string::npos) << error();
    ASSERT_GT(size, 1u) << error();
    std::printf("%u items refused: %s\n", size, error().c_str());
    size /= 2;
  }
  ASSERT_NE(kern, nullptr);
  const uint32_t groups = 3, n = groups * size;
  porta_plugin_buffer out = buffer(n * 4);
  dispatch(kern, groups, 1, 1, {out}, nullptr, 0);
  std::vector<uint32_t> got(n);
  read(out, got.data(), n * 4);
  sync();
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t l = 0; l < size; ++l)
      ASSERT_EQ(got[g * size + l], g * 65536u + (size - 1 - l)) << "group " << g << " item " << l;
}

// The largest push-constant block porta's kernels may have in every backend.
TEST_P(Limits, PushConstantsOf128Bytes) {
  const char* source = R"(#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
layout(push_constant) uniform Push { uint v[32]; } p;
void main() { o[gl_GlobalInvocationID.x] = p.v[gl_GlobalInvocationID.x] * 3u; }
)";
  auto copy = glsl(source, "push128");
  ASSERT_EQ(copy->desc().push_constant_size, 128u);
  porta_plugin_kernel kern = kernel(*copy);
  ASSERT_NE(kern, nullptr);
  uint32_t push[32];
  for (uint32_t i = 0; i < 32; ++i) push[i] = i * 1001 + 1;
  porta_plugin_buffer out = buffer(128);
  dispatch(kern, 1, 1, 1, {out}, push, sizeof push);
  uint32_t got[32];
  read(out, got, 128);
  sync();
  for (uint32_t i = 0; i < 32; ++i) ASSERT_EQ(got[i], push[i] * 3) << i;
}

}  // namespace
}  // namespace porta::test
