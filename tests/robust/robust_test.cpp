// Out-of-bounds buffer accesses (porta/robust.h), on the backend under test
// (PORTA_TEST_BACKEND), opened robust: reads out of bounds give 0, writes are
// dropped, atomics return 0 and change nothing, in-bounds results are right,
// and the host process lives. The CPU backend checks whether or not it is
// asked to; the others only on a robust device.
#include "porta/robust.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "porta/porta.hpp"
#include "support/backend_under_test.hpp"

namespace {

using porta::test::backend_under_test;

porta::Device open_robust() { return porta::open(backend_under_test(), {PORTA_ROBUST_ON, -1}); }

// Vulkan's robustBufferAccess alone may return any value of the buffer for a
// read out of bounds; robustness2, and every translated backend, give 0.
bool reads_give_zero(const porta::Device& device) {
  uint32_t robust = 0;
  porta::detail::check(porta_device_get_robustness(device.handle(), &robust, nullptr));
  return robust && device.backend() != "vulkan";
}

template <class T>
std::vector<T> read_all(const porta::Buffer& b) {
  std::vector<T> out(b.size() / sizeof(T));
  b.read(out);
  return out;
}

// The issue's case: 1000 groups of 64 over a 4 KiB buffer, each item writing its index.
TEST(Robust, WritesPastTheEndAreDropped) {
  porta::Device device = open_robust();
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { float o[]; };
void main() { o[gl_GlobalInvocationID.x] = float(gl_GlobalInvocationID.x); })";
  porta::Kernel k = device.kernel(porta::glsl(source, "write_past_end"));
  porta::Buffer before = device.buffer(4096), out = device.buffer(4096), after = device.buffer(4096);
  porta::Stream s = device.stream();
  s.fill(before, 0xA5A5A5A5u);
  s.fill(after, 0x5A5A5A5Au);
  s.fill(out, 0u);
  s.dispatch(k, {1000, 1, 1}, {out});
  s.sync();
  const std::vector<float> o = read_all<float>(out);
  for (uint32_t i = 0; i < o.size(); ++i) ASSERT_EQ(o[i], float(i)) << "element " << i;
  for (uint32_t word : read_all<uint32_t>(before)) ASSERT_EQ(word, 0xA5A5A5A5u);
  for (uint32_t word : read_all<uint32_t>(after)) ASSERT_EQ(word, 0x5A5A5A5Au);
  // The device works on.
  s.dispatch(k, {16, 1, 1}, {out});
  s.sync();
  EXPECT_EQ(read_all<float>(out)[1023], 1023.0f);
}

// A read 200 MB past a 4 KiB buffer, and one just past its end, beside in-bounds reads.
TEST(Robust, ReadsPastTheEndGiveZero) {
  porta::Device device = open_robust();
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float a[]; };
layout(std430, binding = 1) writeonly buffer Out { float o[]; };
layout(push_constant) uniform P { uint offset; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[i] = a[i + p.offset] + 1.0;
})";
  porta::Kernel k = device.kernel(porta::glsl(source, "read_past_end"));
  std::vector<float> host(1024);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i) * 0.5f + 3.0f;
  porta::Buffer in = device.buffer(4096), out = device.buffer(4096);
  in.write(host);
  porta::Stream s = device.stream();
  for (uint32_t offset : {200u * 1000u * 1000u / 4u, 512u, 0u}) {
    s.fill(out, 0xFFFFFFFFu);
    s.dispatch(k, {16, 1, 1}, {in, out}, offset);
    s.sync();
    const std::vector<float> o = read_all<float>(out);
    for (uint32_t i = 0; i < o.size(); ++i) {
      if (i + offset < host.size()) {
        ASSERT_EQ(o[i], host[i + offset] + 1.0f) << "offset " << offset << ", element " << i;
      } else if (reads_give_zero(device)) {
        ASSERT_EQ(o[i], 1.0f) << "offset " << offset << ", element " << i
                              << ": a read out of bounds is not 0";
      } else {
        ASSERT_FALSE(o[i] != o[i]) << "offset " << offset << ", element "
                                   << i;  // any value of the buffer, + 1
      }
    }
  }
}

// Atomics out of bounds return 0 and change nothing; in bounds they count.
TEST(Robust, AtomicsPastTheEnd) {
  porta::Device device = open_robust();
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Counters { uint c[]; };
layout(std430, binding = 1) buffer Old { uint old[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  old[i % 4096u] = atomicAdd(c[i], 5u) + 1u;
  atomicOr(c[i + 4096u], 1u);
})";
  porta::Kernel k = device.kernel(porta::glsl(source, "atomic_past_end"));
  porta::Buffer counters = device.buffer(1024 * 4), old = device.buffer(4096 * 4);
  porta::Stream s = device.stream();
  s.fill(counters, 7u);
  s.fill(old, 0u);
  s.dispatch(k, {64, 1, 1}, {counters, old});  // 4096 items over 1024 counters
  s.sync();
  const std::vector<uint32_t> c = read_all<uint32_t>(counters), o = read_all<uint32_t>(old);
  for (uint32_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], 12u) << "counter " << i;
  for (uint32_t i = 0; i < o.size(); ++i) {
    if (i < 1024) {
      ASSERT_EQ(o[i], 8u) << "item " << i;
    } else if (reads_give_zero(device)) {
      ASSERT_EQ(o[i], 1u) << "item " << i << ": an atomic out of bounds did not return 0";
    }
  }
}

// Structs, vectors and matrices in a runtime array, a row-major matrix
// (byte-addressed on the translated targets) and a std140 uniform array.
TEST(Robust, CompositesPastTheEnd) {
  porta::Device device = open_robust();
  const char* source = R"(#version 450
layout(local_size_x = 16) in;
struct S { vec4 v; mat2 m; uint k; };
layout(std430, binding = 0) buffer Items { S items[]; };
layout(std430, binding = 1) buffer Rows { layout(row_major) mat3 rows[]; };
layout(std140, binding = 2) uniform U { float u[8]; };
layout(std430, binding = 3) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  S s = items[i];
  mat3 r = rows[i];
  o[i] = s.v.x + s.v.w + s.m[1][0] + float(s.k) + r[2][1] + u[i];
  items[i + 8u].v.y = 100.0;
  items[i + 8u].m[1] = vec2(7.0);
  rows[i + 4u] = mat3(9.0);
})";
  porta::Kernel k = device.kernel(porta::glsl(source, "composites_past_end"));
  // 8 items of 48 bytes (vec4 at 0, mat2 at 16, uint at 32, stride 48); 4 row-major mat3 (48 bytes each).
  const uint32_t item_count = 8, row_count = 4;
  std::vector<float> items(item_count * 12, 0.0f), rows(row_count * 12, 0.0f);
  for (uint32_t i = 0; i < item_count; ++i) {
    items[i * 12 + 0] = 1.0f;
    items[i * 12 + 3] = 2.0f;
    items[i * 12 + 6] = 4.0f;  // m[1][0]
    uint32_t k_value = 8;
    std::memcpy(&items[i * 12 + 8], &k_value, 4);
  }
  for (uint32_t i = 0; i < row_count; ++i) rows[i * 12 + 1 * 4 + 2] = 16.0f;  // row 1, column 2: r[2][1]
  std::vector<float> uniform(8 * 4, 0.0f);
  for (uint32_t i = 0; i < 8; ++i) uniform[i * 4] = 32.0f;
  porta::Buffer item_buffer = device.buffer(items.size() * 4), row_buffer = device.buffer(rows.size() * 4),
                uniform_buffer = device.buffer(uniform.size() * 4), out = device.buffer(16 * 4);
  item_buffer.write(items);
  row_buffer.write(rows);
  uniform_buffer.write(uniform);
  porta::Stream s = device.stream();
  s.dispatch(k, {1, 1, 1}, {item_buffer, row_buffer, uniform_buffer, out});
  s.sync();
  const std::vector<float> o = read_all<float>(out);
  for (uint32_t i = 0; i < 16; ++i) {
    const float expected =
        (i < item_count ? 15.0f : 0.0f) + (i < row_count ? 16.0f : 0.0f) + (i < 8 ? 32.0f : 0.0f);
    if (i < row_count || reads_give_zero(device)) {
      ASSERT_EQ(o[i], expected) << "item " << i;
    }
  }
  // Items 8..15 and rows 4..15 are past the end: stored to nowhere.
  const std::vector<float> items_after = read_all<float>(item_buffer),
                           rows_after = read_all<float>(row_buffer);
  for (uint32_t i = 0; i < item_count; ++i) {
    ASSERT_EQ(items_after[i * 12 + 1], 0.0f) << "item " << i;
    ASSERT_EQ(items_after[i * 12 + 6], 4.0f) << "item " << i;
  }
  EXPECT_EQ(rows_after, rows);
}

// Negative indices of signed type are out of bounds, whatever they add to:
// index -1 of 4-byte floats, of vec4s, and row -1 of a float[][4] at its
// last column (each of whose offset + bytes is 0 in wrapping 64-bit
// arithmetic). The views are ranges of one arena, so an access before a
// view would read or write the arena's pattern.
TEST(Robust, NegativeIndicesAreOutOfBounds) {
  porta::Device device = open_robust();
  const char* source = R"(#version 450
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Data { float d[]; };
layout(std430, binding = 1) readonly buffer Vecs { vec4 v[]; };
layout(std430, binding = 2) readonly buffer Rows { float r[][4]; };
layout(std430, binding = 3) writeonly buffer Out { float o[]; };
void main() {
  const uint item = gl_GlobalInvocationID.x;
  const int i = int(item) - 1;
  o[3u * item] = d[i];
  o[3u * item + 1u] = v[i].w;
  o[3u * item + 2u] = r[i][3];
  d[i] = 5.0;
})";
  porta::Kernel k = device.kernel(porta::glsl(source, "negative_indices"));
  const uint64_t align = std::max<uint64_t>(device.info().binding_offset_alignment, 256);
  const uint32_t pattern = 0xC1F00000u;  // -30.0f
  porta::Buffer arena = device.buffer(4 * align), out = device.buffer(48 * 4);
  porta::Stream s = device.stream();
  s.fill(arena, pattern);
  // Views of 16 floats, 16 vec4s and 16 rows, each element (or row) n holding n + 1.
  std::vector<float> d(16), v(64), r(64);
  for (uint32_t n = 0; n < 16; ++n) {
    d[n] = float(n + 1);
    for (uint32_t c = 0; c < 4; ++c) v[n * 4 + c] = r[n * 4 + c] = float(n + 1);
  }
  s.write(arena, d, align);
  s.write(arena, v, 2 * align);
  s.write(arena, r, 3 * align);
  s.fill(out, 0xFFFFFFFFu);
  s.dispatch_ranges(
      k, {1, 1, 1},
      {arena.range(align, 64), arena.range(2 * align, 256), arena.range(3 * align, 256), out.range(0)});
  s.sync();
  const std::vector<float> o = read_all<float>(out);
  for (uint32_t item = 0; item < 16; ++item) {
    for (uint32_t view = 0; view < 3; ++view) {
      const float value = o[3 * item + view];
      if (item > 0) {
        ASSERT_EQ(value, float(item)) << "item " << item << ", view " << view;
      } else if (reads_give_zero(device)) {
        ASSERT_EQ(value, 0.0f) << "view " << view << ": index -1 read " << value;
      } else {
        ASSERT_NE(value, -30.0f) << "view " << view << ": index -1 read before the view";
      }
    }
  }
  // d[-1] = 5 went nowhere; d[0..14] took 5.
  const std::vector<uint32_t> words = read_all<uint32_t>(arena);
  for (uint64_t w = 0; w < align / 4; ++w) ASSERT_EQ(words[w], pattern) << "arena word " << w;
  const std::vector<float> floats = read_all<float>(arena);
  for (uint32_t n = 0; n < 16; ++n)
    ASSERT_EQ(floats[align / 4 + n], n < 15 ? 5.0f : 16.0f) << "d[" << n << "]";
  for (uint64_t w = align / 4 + 16; w < 2 * align / 4; ++w)
    ASSERT_EQ(words[w], pattern) << "arena word " << w;
}

// 64-bit indices past every buffer are out of bounds: a negative int64 and
// a uint64 of 2^62 floats (2^64 bytes, 0 wrapped), in a SPIR-V module of
// three unnamed buffers of one block type (sixty_four_bit_indices.spvasm).
// The buffers are ranges of one arena with a pattern around them.
TEST(Robust, SixtyFourBitIndicesPastEveryBuffer) {
  porta::Device device = open_robust();
  if (!(device.info().features & PORTA_FEATURE_INT64)) GTEST_SKIP() << "the device has no 64-bit integers";
  std::ifstream file(PORTA_SOURCE_DIR "/tests/robust/sixty_four_bit_indices.spvasm");
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  ASSERT_FALSE(text.empty()) << "tests/robust/sixty_four_bit_indices.spvasm";
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  std::vector<uint32_t> words;
  ASSERT_TRUE(tools.Assemble(text, &words));
  porta::Kernel k = device.kernel(porta::spirv(words, "sixty_four_bit_indices"));
  const uint64_t align = std::max<uint64_t>(device.info().binding_offset_alignment, 256);
  const uint32_t pattern = 0xC1F00000u;  // -30.0f
  struct Push {
    int64_t s;
    uint64_t u;
  };
  for (const Push push : {Push{2, 1}, Push{-1, 1ull << 62}, Push{INT64_MIN, ~0ull}}) {
    porta::Buffer arena = device.buffer(4 * align);
    porta::Stream s = device.stream();
    s.fill(arena, pattern);
    const std::vector<float> x = {10.0f, 11.0f, 12.0f, 13.0f}, w(4, -1.0f);
    s.write(arena, x, align);
    s.write(arena, w, 3 * align);
    s.fill(arena, 0u, 2 * align, 8);
    s.dispatch_ranges(k, {1, 1, 1},
                      {arena.range(align, 16), arena.range(2 * align, 8), arena.range(3 * align, 16)}, push);
    s.sync();
    const std::vector<float> all = read_all<float>(arena);
    const std::vector<uint32_t> bits = read_all<uint32_t>(arena);
    const bool in = push.s == 2;
    for (uint64_t word = 0; word < bits.size(); ++word) {
      const uint64_t view = word / (align / 4), at = word % (align / 4);
      if (view == 0 || at >= (view == 2 ? 2u : 4u)) {
        ASSERT_EQ(bits[word], pattern) << "arena word " << word << ", outside the views";
      } else if (view == 2 && (in || reads_give_zero(device))) {
        ASSERT_EQ(all[word], in ? (at == 0 ? 13.0f : 12.0f) : 1.0f) << "o[" << at << "], s " << push.s;
      } else if (view == 3 && (in || reads_give_zero(device))) {
        const float expected = in && at == 2 ? 7.0f : in && at == 1 ? 8.0f : -1.0f;
        ASSERT_EQ(all[word], expected) << "w[" << at << "], s " << push.s;
      }
    }
  }
}

// Work-items with large private arrays (128 KiB each, past the CPU
// backend's default 64 KiB stacks), in groups with and without barriers, run
// and compute the right values, or the kernel is refused naming the limit:
// the host process lives either way. The CPU backend, which sizes its stacks
// from the compiled kernel, must run them.
TEST(Robust, LargePrivateArraysRunOrAreRefused) {
  porta::Device device = open_robust();
  const uint32_t n = 32768, groups = 3;
  for (bool barriers : {true, false}) {
    SCOPED_TRACE(barriers ? "with barriers" : "without barriers");
    const std::string source = std::string(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { float o[]; };
layout(push_constant) uniform P { uint n; } p;
shared float s[64];
void main() {
  float big[32768];
  const uint id = gl_LocalInvocationID.x;
  for (uint i = 0u; i < p.n; ++i) big[i] = float(i % 7u + id);
  float sum = 0.0;
  for (uint i = 0u; i < p.n; i += 1024u) sum += big[(i + id * 977u) % p.n];
)") + (barriers ? "  s[id] = big[(id * 977u) % p.n];\n  barrier();\n  sum += s[(id + 1u) % 64u];\n"
                                              : "  sum += big[(id * 977u + 977u) % p.n] + 1.0;\n") +
                               "  o[gl_GlobalInvocationID.x] = sum;\n}\n";
    porta::Buffer out = device.buffer(64 * groups * sizeof(float));
    porta::Stream s = device.stream();
    s.fill(out, 0u);
    try {
      porta::Kernel k = device.kernel(porta::glsl(source, barriers ? "private_barriers" : "private_loop"));
      s.dispatch(k, {groups, 1, 1}, {out}, n);
      s.sync();
    } catch (const porta::Error& e) {
      ASSERT_NE(device.backend(), "cpu") << e.what();
      const std::string message = e.what();
      EXPECT_TRUE(e.status() == PORTA_ERROR_OUT_OF_MEMORY || e.status() == PORTA_ERROR_UNSUPPORTED) << message;
      EXPECT_NE(message.find("private"), std::string::npos) << message;
      continue;
    }
    const std::vector<float> o = read_all<float>(out);
    for (uint32_t g = 0; g < 64 * groups; ++g) {
      const uint32_t id = g % 64;
      float sum = 0.0f;
      for (uint32_t i = 0; i < n; i += 1024) sum += float((i + id * 977u) % n % 7u + id);
      // Item id + 1 wrote s[id + 1]: big[(id + 1) * 977 % n] of its own.
      const uint32_t next = (id + 1) % 64;
      sum += barriers ? float((next * 977u) % n % 7u + next) : float((id * 977u + 977u) % n % 7u + id) + 1.0f;
      ASSERT_EQ(o[g], sum) << "item " << g;
    }
  }
}

// Bad options and settings are errors naming them; nothing is opened.
TEST(Robust, BadOptionsAreRefused) {
  const std::string selector = backend_under_test();
  auto expect = [&](porta_status wanted, const char* needle, const std::function<porta_status()>& call) {
    EXPECT_EQ(call(), wanted) << porta_last_error();
    EXPECT_NE(std::string(porta_last_error()).find(needle), std::string::npos) << porta_last_error();
  };
  porta_device device = nullptr;
  porta_device_options options{7, 0};
  expect(PORTA_ERROR_INVALID_ARGUMENT, "options->robust",
         [&] { return porta_device_open_with_options(selector.c_str(), &options, &device); });
  EXPECT_EQ(device, nullptr);
  options = {PORTA_ROBUST_ON, std::nan("")};
  expect(PORTA_ERROR_INVALID_ARGUMENT, "timeout_seconds",
         [&] { return porta_device_open_with_options(selector.c_str(), &options, &device); });
  expect(PORTA_ERROR_INVALID_ARGUMENT, "device is null",
         [&] { return porta_device_open_with_options(selector.c_str(), nullptr, nullptr); });
  expect(PORTA_ERROR_INVALID_HANDLE, "porta_device_get_robustness",
         [&] { return porta_device_get_robustness(nullptr, nullptr, nullptr); });
  setenv("PORTA_TIMEOUT", "soon", 1);
  expect(PORTA_ERROR_INVALID_ARGUMENT, "PORTA_TIMEOUT is 'soon'",
         [&] { return porta_device_open(selector.c_str(), &device); });
  unsetenv("PORTA_TIMEOUT");
  setenv("PORTA_ROBUST", "yes", 1);
  expect(PORTA_ERROR_INVALID_ARGUMENT, "PORTA_ROBUST is 'yes'",
         [&] { return porta_device_open(selector.c_str(), &device); });
  unsetenv("PORTA_ROBUST");
  // What the device was opened with is what it reports.
  options = {PORTA_ROBUST_ON, 2.5};
  ASSERT_EQ(porta_device_open_with_options(selector.c_str(), &options, &device), PORTA_SUCCESS)
      << porta_last_error();
  uint32_t robust = 0;
  double timeout = 0;
  EXPECT_EQ(porta_device_get_robustness(device, &robust, &timeout), PORTA_SUCCESS);
  EXPECT_EQ(robust, 1u);
  EXPECT_EQ(timeout, 2.5);
  if (std::string(selector).rfind("cpu", 0) == 0) {
    setenv("PORTA_CPU_BOUNDS", "sometimes", 1);
    porta_kernel kernel = nullptr;
    const char* source = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    expect(PORTA_ERROR_INVALID_ARGUMENT, "PORTA_CPU_BOUNDS is 'sometimes'", [&] {
      return porta_kernel_create_glsl(device, source, std::strlen(source), "empty", nullptr, 0, &kernel);
    });
    unsetenv("PORTA_CPU_BOUNDS");
  }
  porta_device_close(device);
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  porta::test::skip_process_if_unavailable();
  return RUN_ALL_TESTS();
}
