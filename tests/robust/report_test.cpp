// PORTA_ROBUST=report (porta/robust.h), on the backend under test
// (PORTA_TEST_BACKEND): the first access out of bounds of a dispatch is an
// error from the sync after it, naming kernel, buffer, index and size; the
// accesses stay defined (reads 0, writes dropped) and the stream works on.
// Vulkan devices run modules the core instruments (bounds_instrument.cpp).
#include <gtest/gtest.h>

#include <cstdio>
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

// Writes past the end: the count is every one of them.
TEST(Report, WritesPastTheEndAreCountedAndDropped) {
  porta::Device device = open_reporting();
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { float o[]; };
void main() { o[gl_GlobalInvocationID.x] = float(gl_GlobalInvocationID.x); })";
  porta::Kernel k = device.kernel(porta::glsl(source, "write_past_end"));
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

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  porta::test::skip_process_if_unavailable();
  return RUN_ALL_TESTS();
}
