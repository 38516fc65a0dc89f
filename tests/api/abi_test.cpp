// The kernel ABI through libporta on the backend under test: uniform blocks,
// buffers at sets 1 and 2, an array of buffers, aliasing views, .length(), a
// kernel without buffers, and the dispatch check of a buffer too small for
// its block.
#include <cstring>

#include "support/abi_kernels.hpp"
#include "test_support.hpp"

namespace {

namespace abi = porta::test::abi_kernels;
using porta::test::open_under_test;

TEST(Abi, UniformBlockAndStorageBuffers) {
  auto dev = open_under_test();
  porta::Kernel k = dev.kernel(porta::glsl(abi::kUniform, "abi_uniform"));
  ASSERT_EQ(k.buffer_count(), 3u);
  const uint32_t n = 100;
  std::vector<uint32_t> params(7);
  const float scale[4] = {2.0f, 3.0f, -1.0f, 0.5f}, bias = 1.5f;
  const int32_t shift = 4;
  std::memcpy(params.data(), scale, 16);
  std::memcpy(&params[4], &bias, 4);
  params[5] = n;
  std::memcpy(&params[6], &shift, 4);
  std::vector<float> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i) - 50.0f;
  porta::Buffer bp = dev.upload(params), bx = dev.upload(x), by = dev.buffer(n * 4);
  porta::Stream s = dev.stream();
  s.dispatch(k, {(n + 63) / 64, 1, 1}, {bp, bx, by});
  std::vector<float> y(n);
  s.read(by, y);
  s.sync();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y[i], x[i] * scale[i % 4] + bias + float(shift)) << i;
}

TEST(Abi, SetsArraysAliasesAndLengths) {
  auto dev = open_under_test();
  porta::Stream s = dev.stream();
  const uint32_t n = 70;
  {  // sets 1 and 2
    porta::Kernel k = dev.kernel(porta::glsl(abi::kSets, "abi_sets"));
    std::vector<float> a(n), b(n);
    for (uint32_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i);
      b[i] = static_cast<float>(3 * i + 1);
    }
    porta::Buffer ba = dev.upload(a), bb = dev.upload(b), bc = dev.buffer(n * 4);
    s.dispatch(k, {2, 1, 1}, {ba, bb, bc}, n);
    std::vector<float> c(n);
    s.read(bc, c);
    s.sync();
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], -1.0f) << i;
  }
  {  // an array of three buffers and their lengths
    porta::Kernel k = dev.kernel(porta::glsl(abi::kArrayOfBuffers, "abi_array"));
    ASSERT_EQ(k.buffer_count(), 4u);
    std::vector<float> x0(n, 1.0f), x1(n + 5, 10.0f), x2(n + 9, 100.0f);
    porta::Buffer b0 = dev.upload(x0), b1 = dev.upload(x1), b2 = dev.upload(x2),
                  out = dev.buffer((n + 3) * 4);
    s.dispatch(k, {2, 1, 1}, {b0, b1, b2, out}, n);
    std::vector<float> y(n + 3);
    s.read(out, y);
    s.sync();
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y[i], 421.0f) << i;
    EXPECT_EQ(y[n], float(n));
    EXPECT_EQ(y[n + 1], float(n + 5));
    EXPECT_EQ(y[n + 2], float(n + 9));
  }
  {  // a uint view and a float view of one buffer
    porta::Kernel k = dev.kernel(porta::glsl(abi::kAliasedViews, "abi_aliased"));
    ASSERT_EQ(k.buffer_count(), 1u);
    std::vector<float> v(2 * n, 0.0f);
    for (uint32_t i = 0; i < n; ++i) v[i] = 0.25f * static_cast<float>(i) + 1.0f;
    porta::Buffer b = dev.upload(v);
    s.dispatch(k, {2, 1, 1}, {b}, n);
    std::vector<float> got(2 * n);
    s.read(b, got);
    s.sync();
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t bits;
      std::memcpy(&bits, &v[i], 4);
      ASSERT_EQ(got[n + i], v[i] + static_cast<float>(bits >> 16)) << i;
    }
  }
}

TEST(Abi, KernelWithoutBuffersRuns) {
  auto dev = open_under_test();
  porta::Kernel k = dev.kernel(porta::glsl(abi::kNoBuffers, "abi_no_buffers"));
  EXPECT_EQ(k.buffer_count(), 0u);
  porta::Stream s = dev.stream();
  s.dispatch(k, {8, 1, 1}, {});
  s.sync();
}

// The core checks each buffer against the fixed part of its block before a
// backend sees it: a smaller buffer would be read out of bounds.
TEST(Abi, BufferSmallerThanItsBlockIsRefusedByName) {
  auto dev = open_under_test();
  porta::Kernel k = dev.kernel(porta::glsl(abi::kUniform, "abi_uniform"));
  porta::Buffer small = dev.buffer(24), x = dev.buffer(64), y = dev.buffer(64);
  porta::Stream s = dev.stream();
  try {
    s.dispatch(k, {1, 1, 1}, {small, x, y});
    ADD_FAILURE() << "a 24-byte buffer for a 28-byte uniform block was accepted";
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_INVALID_ARGUMENT) << e.what();
    const std::string message = e.what();
    for (const char* part : {"'params'", "set 0, binding 0", "24 bytes", "at least 28 bytes", "abi_uniform"})
      EXPECT_NE(message.find(part), std::string::npos) << part << " not in: " << message;
  }
  porta::Kernel lengths = dev.kernel(porta::glsl(abi::kLength, "abi_length"));
  porta::Buffer none = dev.buffer(2);  // less than Header's uint tag
  try {
    s.dispatch(lengths, {1, 1, 1}, {none, x, y});
    ADD_FAILURE() << "a 2-byte buffer for a block whose fixed part is 4 bytes was accepted";
  } catch (const porta::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'header', set 0, binding 0) of kernel 'abi_length' is 2 bytes"),
              std::string::npos)
        << e.what();
  }
  s.sync();
}

}  // namespace
