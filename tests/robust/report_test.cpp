// PORTA_ROBUST=report (porta/robust.h), on the backend under test
// (PORTA_TEST_BACKEND): the first access out of bounds of a dispatch is an
// error from the sync after it, naming kernel, buffer, index and size; the
// accesses stay defined (reads 0, writes dropped) and the stream works on.
// Vulkan devices run modules the core instruments (bounds_instrument.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "porta/porta.hpp"
#include "porta/robust.h"
#include "support/backend_under_test.hpp"

namespace {

using porta::test::backend_under_test;

porta::Device open_reporting() { return porta::open(backend_under_test(), {PORTA_ROBUST_REPORT, -1}); }

// What the sync after `dispatch` says (status and message); "" when it succeeds.
std::string sync_error(porta::Stream& s, porta_status* status = nullptr) {
  try {
    s.sync();
  } catch (const porta::Error& e) {
    if (status) *status = e.status();
    return e.what();
  }
  return "";
}

void expect_has(const std::string& text, const std::string& needle) {
  EXPECT_NE(text.find(needle), std::string::npos) << "'" << needle << "' is not in: " << text;
}

void expect_all(const std::string& text, std::initializer_list<const char*> needles) {
  for (const char* needle : needles) expect_has(text, needle);
}

const char* kOffByOne = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float a[]; } in_data;
layout(std430, binding = 1) writeonly buffer Out { float o[]; } out_data;
void main() {
  uint i = gl_GlobalInvocationID.x;
  out_data.o[i] = in_data.a[i + 1] * 2.0;  // a[1024] for the last item
})";

// The most common bug there is: one element past the end.
TEST(Report, OffByOneReadIsReportedWithItsIndex) {
  porta::Device device = open_reporting();
  uint32_t robust = 0;
  porta::detail::check(porta_device_get_robustness(device.handle(), &robust, nullptr));
  EXPECT_EQ(robust, 2u);
  porta::Kernel k = device.kernel(porta::glsl(kOffByOne, "off_by_one"));
  std::vector<float> host(1024);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i);
  porta::Buffer in = device.buffer(4096), out = device.buffer(4096);
  in.write(host);
  porta::Stream s = device.stream();
  s.dispatch(k, {16, 1, 1}, {in, out});
  porta_status status = PORTA_SUCCESS;
  const std::string message = sync_error(s, &status);
  EXPECT_EQ(status, PORTA_ERROR_OUT_OF_BOUNDS) << message;
  std::printf("the report: %s\n", message.c_str());
  expect_has(message, "kernel 'off_by_one'");
  expect_has(message, "read buffer 0 ('in_data', set 0, binding 0)");
  expect_has(message, "index 1024 (byte 4096 of its 4096 bytes, 4-byte elements)");
  expect_has(message, "1 access out of bounds in all");
  // Defined meanwhile: the read gave 0, the rest is right.
  std::vector<float> o(1024);
  out.read(o);
  for (uint32_t i = 0; i + 1 < 1024; ++i) ASSERT_EQ(o[i], 2.0f * float(i + 1)) << "element " << i;
  EXPECT_EQ(o[1023], 0.0f);
  // The stream works on, and a dispatch in bounds reports nothing.
  s.dispatch(k, {15, 1, 1}, {in, out});
  EXPECT_EQ(sync_error(s), "");
}

// The issue's case: 1000 groups of 64 over a 4 KiB buffer, each item writing its index.
const char* kWritePastEnd = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { float o[]; };
void main() { o[gl_GlobalInvocationID.x] = float(gl_GlobalInvocationID.x); })";

// Writes past the end: the count is every one of them.
TEST(Report, WritesPastTheEndAreCountedAndDropped) {
  porta::Device device = open_reporting();
  porta::Kernel k = device.kernel(porta::glsl(kWritePastEnd, "write_past_end"));
  porta::Buffer out = device.buffer(4096);
  porta::Stream s = device.stream();
  s.dispatch(k, {1000, 1, 1}, {out});
  porta_status status = PORTA_SUCCESS;
  const std::string message = sync_error(s, &status);
  EXPECT_EQ(status, PORTA_ERROR_OUT_OF_BOUNDS) << message;
  expect_has(message, "kernel 'write_past_end'");
  expect_has(message, "wrote buffer 0 ('Out', set 0, binding 0)");
  expect_has(message, "of its 4096 bytes");
  expect_has(message, std::to_string(64000 - 1024) + " accesses out of bounds in all");
  std::vector<float> o(1024);
  out.read(o);
  for (uint32_t i = 0; i < o.size(); ++i) ASSERT_EQ(o[i], float(i)) << "element " << i;
}

// Of several dispatches before a sync, the one that went out of bounds is named.
TEST(Report, TheDispatchThatFailedIsNamed) {
  porta::Device device = open_reporting();
  porta::Kernel k = device.kernel(porta::glsl(kOffByOne, "off_by_one"));
  porta::Buffer in = device.buffer(4096), out = device.buffer(4096), small = device.buffer(2048);
  porta::Stream s = device.stream();
  s.dispatch(k, {15, 1, 1}, {in, out});
  s.dispatch(k, {8, 1, 1}, {in, small});    // 512 items into 512 floats, reading 513: in bounds
  s.dispatch(k, {16, 1, 1}, {small, out});  // reads 1024 floats of a 512-float buffer
  const std::string message = sync_error(s);
  // Which of the 513 is first depends on the schedule: any, of the right buffer.
  expect_has(message, "read buffer 0 ('in_data', set 0, binding 0)");
  expect_has(message, "of its 2048 bytes");
  expect_has(message, std::to_string(1024 - 511) + " accesses");
  expect_has(message, "[dispatch 3 of the 3 reporting since the last sync]");
  EXPECT_EQ(sync_error(s), "");  // reported once
}

// A recorded sequence reports at the sync after each replay.
TEST(Report, SequencesReportEachReplay) {
  porta::Device device = open_reporting();
  porta::Kernel k = device.kernel(porta::glsl(kOffByOne, "off_by_one"));
  porta::Buffer in = device.buffer(4096), out = device.buffer(4096);
  porta::Stream s = device.stream();
  s.begin_record();
  s.dispatch(k, {16, 1, 1}, {in, out});
  porta::Sequence seq = s.end_record();
  for (int replay = 0; replay < 2; ++replay) {
    s.replay(seq);
    expect_has(sync_error(s), "index 1024");
  }
  EXPECT_EQ(sync_error(s), "");
}

// A kernel whose creation `device` refuses for a feature it lacks (8-bit
// storage, say) is a skip naming the reason; null then.
std::optional<porta::Kernel> kernel_if_supported(porta::Device& device, const char* source,
                                                 const char* name) {
  try {
    return device.kernel(porta::glsl(source, name));
  } catch (const porta::Error& e) {
    if (e.status() != PORTA_ERROR_UNSUPPORTED) throw;
    std::printf("not run here: %s\n", e.what());
    return std::nullopt;
  }
}

// Structs, matrices and push constants: the index is the struct's, the byte the member's.
TEST(Report, AMemberOfAStructPastTheEndIsNamedByItsElement) {
  porta::Device device = open_reporting();
  const char* source = R"(#version 450
layout(push_constant) uniform P { uint n; } p;
struct Particle { vec3 position; float mass; mat2 m; uint k; };
layout(std430, binding = 0) buffer Items { Particle items[]; };
layout(local_size_x = 1) in;
void main() { items[p.n].m[1] = vec2(7.0); })";
  porta::Kernel k = device.kernel(porta::glsl(source, "struct_member"));
  porta::Buffer items = device.buffer(8 * 48);  // 8 items of 48 bytes (vec3, float, mat2 at 16, uint at 32)
  porta::Stream s = device.stream();
  s.fill(items, 0u);
  s.dispatch(k, {1, 1, 1}, {items}, 7u);
  EXPECT_EQ(sync_error(s), "");
  s.dispatch(k, {1, 1, 1}, {items}, 8u);
  const std::string message = sync_error(s);
  // Item 8's m[1] (its bytes 24 to 31) starts at byte 8 * 48 + 24.
  expect_has(message, "kernel 'struct_member'");
  expect_has(message, "wrote buffer 0 ('Items', set 0, binding 0)");
  expect_has(message, "index 8 (byte 408 of its 384 bytes, 48-byte elements)");
  std::vector<float> host(8 * 12);
  items.read(host);
  EXPECT_EQ(host[7 * 12 + 6], 7.0f);  // item 7's m[1] was written
}

// Atomics out of bounds change nothing, return 0 and are named as writes.
TEST(Report, AtomicsPastTheEndReturnZero) {
  porta::Device device = open_reporting();
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Slots { uint slot[]; };
layout(std430, binding = 1) writeonly buffer Before { uint before[]; };
void main() {
  const uint item = gl_GlobalInvocationID.x;
  before[item] = atomicExchange(slot[item], item + 100u) + 1u;
})";
  porta::Kernel k = device.kernel(porta::glsl(source, "exchange_past_end"));
  porta::Buffer slots = device.buffer(100 * 4), before = device.buffer(128 * 4);
  porta::Stream s = device.stream();
  s.fill(slots, 7u);
  s.dispatch(k, {2, 1, 1}, {slots, before});
  const std::string message = sync_error(s);
  expect_all(message, {"wrote buffer 0 ('Slots', set 0, binding 0)", "of its 400 bytes, 4-byte elements)",
                       "28 accesses out of bounds in all"});
  std::vector<uint32_t> after(100), old(128);
  slots.read(after);
  before.read(old);
  for (uint32_t i = 0; i < 100; ++i) ASSERT_EQ(after[i], i + 100) << "slot " << i;
  for (uint32_t i = 0; i < 128; ++i) ASSERT_EQ(old[i], i < 100 ? 8u : 1u) << "item " << i;
}

// 8- and 16-bit elements: the index counts them, not words.
TEST(Report, NarrowElementsAreCountedAsElements) {
  porta::Device device = open_reporting();
  const char* source = R"(#version 450
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer Bytes { uint8_t b[]; };
layout(std430, binding = 1) buffer Halves { uint16_t h[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  h[i] = uint16_t(b[i + 3u]) + uint16_t(1);
})";
  std::optional<porta::Kernel> k = kernel_if_supported(device, source, "narrow");
  if (!k) GTEST_SKIP() << "8- and 16-bit storage";
  porta::Buffer bytes = device.buffer(16), halves = device.buffer(32);
  std::vector<uint8_t> host(16);
  for (size_t i = 0; i < host.size(); ++i) host[i] = uint8_t(10 + i);
  bytes.write(host);
  porta::Stream s = device.stream();
  s.dispatch(*k, {1, 1, 1}, {bytes, halves});
  expect_all(sync_error(s), {"read buffer 0 ('Bytes', set 0, binding 0)", "of its 16 bytes, 1-byte elements)",
                             "3 accesses out of bounds in all"});
  std::vector<uint16_t> h(16);
  halves.read(h);
  for (uint32_t i = 0; i < 16; ++i) ASSERT_EQ(h[i], i + 3 < 16 ? 10 + i + 3 + 1 : 1u) << "element " << i;
}

// An array of blocks names the block that was overrun, and a block index past
// the array is said to be so.
TEST(Report, ArraysOfBlocksNameTheElement) {
  porta::Device device = open_reporting();
  const char* source = R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Parts { float x[]; } parts[3];
layout(push_constant) uniform P { uint block; uint index; } p;
void main() { parts[p.block].x[p.index] = 1.0; })";
  porta::Kernel k = device.kernel(porta::glsl(source, "parts"));
  porta::Buffer a = device.buffer(64), b = device.buffer(32), c = device.buffer(16);
  porta::Stream s = device.stream();
  const uint32_t past_b[2] = {1, 8}, past_array[2] = {3, 0}, inside[2] = {2, 3};
  s.dispatch(k, {1, 1, 1}, {a, b, c}, past_b);
  std::string message = sync_error(s);
  expect_has(message, "wrote buffer 1 ('parts[1]', set 0, binding 0)");
  expect_has(message, "index 8 (byte 32 of its 32 bytes, 4-byte elements)");
  s.dispatch(k, {1, 1, 1}, {a, b, c}, past_array);
  message = sync_error(s);
  expect_has(message, "an element of its array of blocks past the array's end");
  s.dispatch(k, {1, 1, 1}, {a, b, c}, inside);
  EXPECT_EQ(sync_error(s), "");
}

// A std140 uniform array: 16-byte elements, whatever the scalar.
TEST(Report, UniformArraysPastTheEnd) {
  porta::Device device = open_reporting();
  const char* source = R"(#version 450
layout(local_size_x = 8) in;
layout(std140, binding = 0) uniform U { float u[4]; };
layout(std430, binding = 1) buffer Out { float o[]; };
void main() { uint i = gl_GlobalInvocationID.x; o[i] = u[i] + 1.0; })";
  porta::Kernel k = device.kernel(porta::glsl(source, "uniform_past_end"));
  porta::Buffer u = device.buffer(64), out = device.buffer(32);
  porta::Stream s = device.stream();
  s.fill(u, 0x40000000u);  // 2.0f
  s.dispatch(k, {1, 1, 1}, {u, out});
  expect_all(sync_error(s), {"read buffer 0 ('U', set 0, binding 0)", "of its 64 bytes, 16-byte elements)",
                             "4 accesses out of bounds in all"});
  std::vector<float> o(8);
  out.read(o);
  for (uint32_t i = 0; i < 8; ++i) ASSERT_EQ(o[i], i < 4 ? 3.0f : 1.0f) << "element " << i;
}

// A loop whose condition reads the buffer (the load sits in the loop's
// header) ends on the 0 a read past the end gives; spec constants move the index.
TEST(Report, LoopConditionsAndSpecConstants) {
  porta::Device device = open_reporting();
  const char* source = R"(#version 450
layout(local_size_x = 1) in;
layout(constant_id = 0) const uint start = 0u;
layout(std430, binding = 0) readonly buffer Words { uint w[]; };
layout(std430, binding = 1) writeonly buffer Out { uint n; };
void main() {
  uint i = start;
  while (w[i] != 0u) i++;
  n = i;
})";
  porta::Buffer words = device.buffer(40), out = device.buffer(4);
  porta::Stream s = device.stream();
  s.fill(words, 5u);
  for (uint32_t start : {0u, 20u}) {
    porta::Kernel k = device.kernel(porta::glsl(source, "find_zero"), {porta::SpecConstant{0, start}});
    s.dispatch(k, {1, 1, 1}, {words, out});
    const std::string message = sync_error(s);
    expect_has(message, "read buffer 0 ('Words', set 0, binding 0)");
    expect_has(message, "index " + std::to_string(start ? start : 10) + " (byte " +
                            std::to_string(4 * (start ? start : 10)) + " of its 40 bytes");
    uint32_t n = 0;
    out.read(std::span<uint32_t>(&n, 1));
    EXPECT_EQ(n, start ? start : 10u);
  }
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  porta::test::skip_process_if_unavailable();
  return RUN_ALL_TESTS();
}
