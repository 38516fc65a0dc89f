// Buffers, transfers, streams, events and recorded sequences on the backend
// under test, plus the bad inputs every backend must refuse cleanly.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <optional>
#include <thread>

#include <unistd.h>

#include "support/device_test.hpp"
#include "test_support.hpp"

namespace {

using porta::test::open_under_test;

const char* kAddOne = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float v[]; };
layout(push_constant) uniform P { uint n; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < n) v[i] += 1.0; })";

void expect_error(porta_status want, const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected " << porta_status_name(want) << " mentioning '" << needle << "'";
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), want) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "message: " << e.what();
  }
}

class Streams : public porta::test::DeviceTest {
 protected:
  // A dispatch of `kernel` with these arguments is refused as INVALID_ARGUMENT, saying `needle`.
  template <class... Push>
  void expect_refused_dispatch(const porta::Kernel& kernel, porta::Groups groups,
                               std::initializer_list<porta::Buffer> buffers, const std::string& needle,
                               const Push&... push) {
    expect_error(
        PORTA_ERROR_INVALID_ARGUMENT, [&] { stream.dispatch(kernel, groups, buffers, push...); }, needle);
  }
};

TEST_F(Streams, RoundTripsOfAwkwardSizes) {
  for (uint64_t size : {1ull, 3ull, 4ull, 4097ull, (1ull << 20) + 13}) {
    std::vector<uint8_t> in(size), out(size, 0xEE);
    for (uint64_t i = 0; i < size; ++i) in[i] = static_cast<uint8_t>(i * 131 + 7);
    auto b = dev.buffer(size);
    stream.write(b, in);
    stream.read(b, out);
    stream.sync();
    ASSERT_EQ(in, out) << size;
  }
}

TEST_F(Streams, ZeroByteTransfersAreNoOps) {
  auto b = dev.buffer(16);
  stream.write(b, std::span<const uint8_t>());
  stream.read(b, std::span<uint8_t>());
  stream.sync();
}

TEST_F(Streams, OffsetsCopyAndFill) {
  auto a = dev.buffer(64), b = dev.buffer(64);
  stream.fill(a, 0x01020304u);
  stream.fill(b, 0u);
  std::vector<uint32_t> mid = {7, 8, 9};
  stream.write(a, mid, 16);
  stream.copy(a, b, 24, 8, 32);  // a[8..32) → b[32..56)
  std::vector<uint32_t> ra(16), rb(16);
  stream.read(a, ra);
  stream.read(b, rb);
  stream.sync();
  EXPECT_EQ(ra[3], 0x01020304u);
  EXPECT_EQ(ra[4], 7u);
  EXPECT_EQ(ra[6], 9u);
  EXPECT_EQ(rb[7], 0u);
  EXPECT_EQ(rb[8], 0x01020304u);  // a[8] = pattern
  EXPECT_EQ(rb[10], 7u);
  EXPECT_EQ(rb[13], 0x01020304u);
  EXPECT_EQ(rb[14], 0u);
}

// A fill, a write, a copy and a read of more than 8 GiB each, one call
// apiece, checked word by word: sizes where a driver's own counts may wrap
// (2^31 and 2^32 words, 2^32 and 2^33 bytes). PORTA_TEST_LARGE=1 (ctest
// api.large.*, label `large`) runs it: 16 GiB of device memory and 8 GiB of
// host memory.
TEST_F(Streams, TransfersPastEightGibibytes) {
  if (!std::getenv("PORTA_TEST_LARGE")) GTEST_SKIP() << "runs with PORTA_TEST_LARGE=1 (ctest -L large)";
  const uint64_t bytes = (uint64_t{1} << 33) + 4096, words = bytes / 4, shift = 1024;
  if (dev.info().limits.max_buffer_bytes < bytes)
    GTEST_SKIP() << "the device's largest buffer is " << dev.info().limits.max_buffer_bytes << " bytes";
  // Buffers in host memory (CPU-type devices) come from the host's 8 GiB too:
  // where less is free than all three take, the kernel would end the process.
  const uint64_t host_free = uint64_t(sysconf(_SC_AVPHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
  const bool unified = (dev.info().flags & PORTA_DEVICE_FLAG_UNIFIED_MEMORY) != 0;
  if (host_free < (unified ? 3 : 1) * bytes + (uint64_t{1} << 30))
    GTEST_SKIP() << "the host has " << host_free << " bytes free, less than the test's "
                 << (unified ? "buffers and host copy" : "host copy") << " take";
  std::optional<porta::Buffer> a, b;
  try {
    a = dev.buffer(bytes);
    b = dev.buffer(bytes);
  } catch (const porta::Error& e) {
    if (e.status() != PORTA_ERROR_OUT_OF_MEMORY) throw;
    GTEST_SKIP() << "two buffers of " << bytes << " bytes do not fit: " << e.what();
  }
  const uint32_t pattern = 0x3c003c01u;
  stream.fill(*a, pattern);
  stream.fill(*b, 0u);
  // Words either side of each size where a count of words or bytes wraps.
  for (uint64_t at : {uint64_t{0}, (uint64_t{1} << 31) - 8, (uint64_t{1} << 32) - 8, (uint64_t{1} << 33) - 8,
                      bytes - 16}) {
    std::vector<uint32_t> got(4, 0);
    stream.read(*a, got, at);
    stream.sync();
    for (size_t k = 0; k < got.size(); ++k)
      EXPECT_EQ(got[k], pattern) << "fill: the word at byte " << at + 4 * k;
  }
  auto value = [](uint64_t i) { return static_cast<uint32_t>((i * 0x9e3779b97f4a7c15ull) >> 32); };
  std::vector<uint32_t> host(words);
  for (uint64_t i = 0; i < words; ++i) host[i] = value(i);
  stream.write(*a, host);
  // b[i] = a[i + shift]; b's last `shift` words keep the fill's 0.
  stream.copy(*a, *b, bytes - 4 * shift, 4 * shift, 0);
  stream.sync();  // the write reads `host` until then
  std::fill(host.begin(), host.end(), 0xffffffffu);
  stream.read(*b, host);
  stream.sync();
  uint64_t bad = 0;
  for (uint64_t i = 0; i < words; ++i) {
    const uint32_t want = i + shift < words ? value(i + shift) : 0u;
    if (host[i] != want && ++bad <= 5)
      ADD_FAILURE() << "write, copy or read: the word at byte " << 4 * i << " is " << host[i] << ", expected "
                    << want;
  }
  EXPECT_EQ(bad, 0u) << "words wrong of " << words;
}

// Kernels that write ranges of a buffer nothing has used yet, each through
// its own binding, with nothing in between: every range keeps its writes.
TEST_F(Streams, KernelsWriteRangesOfANewBuffer) {
  const char* store = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float v[]; };
layout(push_constant) uniform P { uint n; float tag; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < n) v[i] = tag + float(i); })";
  auto k = dev.kernel(porta::glsl(store, "store"));
  const uint64_t align = std::max<uint64_t>(dev.info().binding_offset_alignment, 4);
  const uint32_t n = static_cast<uint32_t>(std::max<uint64_t>(align, 1024) / 4 * 3);  // floats per range
  const uint64_t ranges = 4, range_bytes = (uint64_t{n} * 4 + align - 1) / align * align;
  auto b = dev.buffer(ranges * range_bytes);
  struct {
    uint32_t n;
    float tag;
  } push{n, 0};
  for (uint64_t r = 0; r < ranges; ++r) {
    push.tag = 100000.0f * static_cast<float>(r + 1);
    stream.dispatch_ranges(k, {(n + 63) / 64}, {b.range(r * range_bytes, uint64_t{n} * 4)}, push);
  }
  std::vector<float> got(ranges * range_bytes / 4);
  stream.read(b, got);
  stream.sync();
  uint64_t bad = 0;
  for (uint64_t r = 0; r < ranges; ++r)
    for (uint32_t i = 0; i < n; ++i) {
      const float want = 100000.0f * static_cast<float>(r + 1) + static_cast<float>(i);
      const float value = got[r * range_bytes / 4 + i];
      if (value != want && ++bad <= 5)
        ADD_FAILURE() << "range " << r << ", element " << i << ": " << value << ", expected " << want;
    }
  EXPECT_EQ(bad, 0u);
}

// Fills of ranges that start and end anywhere on a 4-byte boundary of a
// buffer of a few hundred KiB, over each other, then a copy between ranges.
TEST_F(Streams, FillsAndCopiesOfAwkwardRanges) {
  const uint64_t words = (uint64_t{300} << 10) / 4 + 7;
  auto b = dev.buffer(words * 4), c = dev.buffer(words * 4);
  std::vector<uint32_t> want(words, 0x11111111u);
  stream.fill(b, 0x11111111u);
  struct Range {
    uint64_t first, count;
    uint32_t pattern;
  };
  for (const Range& r : {Range{1, 5, 0x22222222u}, Range{129, 40000, 0x33333333u},
                         Range{12289, 3, 0x44444444u}, Range{words - 20001, 20001, 0x55555555u},
                         Range{777, 70001, 0x66666666u}}) {
    stream.fill(b, r.pattern, r.first * 4, r.count * 4);
    std::fill(want.begin() + static_cast<ptrdiff_t>(r.first),
              want.begin() + static_cast<ptrdiff_t>(r.first + r.count), r.pattern);
  }
  stream.fill(c, 0u);
  stream.copy(b, c, (words - 1001) * 4, 1000 * 4, 3 * 4);  // b[1000..words-1) -> c[3..)
  std::vector<uint32_t> got(words), copied(words);
  stream.read(b, got);
  stream.read(c, copied);
  stream.sync();
  uint64_t bad = 0;
  for (uint64_t i = 0; i < words; ++i) {
    if (got[i] != want[i] && ++bad <= 5)
      ADD_FAILURE() << "fill: word " << i << " is " << std::hex << got[i] << ", expected " << want[i];
    const uint32_t copy_want = i >= 3 && i < words - 998 ? want[i - 3 + 1000] : 0u;
    if (copied[i] != copy_want && ++bad <= 5)
      ADD_FAILURE() << "copy: word " << i << " is " << std::hex << copied[i] << ", expected " << copy_want;
  }
  EXPECT_EQ(bad, 0u);
}

TEST_F(Streams, InOrderExecutionAcrossDispatchesAndTransfers) {
  const uint32_t n = 1000;
  auto k = dev.kernel(porta::glsl(kAddOne, "add_one"));
  std::vector<float> v(n, 0.0f), r(n);
  auto b = dev.upload(v);
  for (int i = 0; i < 10; ++i) stream.dispatch(k, {(n + 63) / 64}, {b}, n);
  stream.read(b, r);
  std::vector<float> twice(n);
  stream.dispatch(k, {(n + 63) / 64}, {b}, n);
  stream.read(b, twice);
  stream.sync();
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(r[i], 10.0f);
    ASSERT_EQ(twice[i], 11.0f);
  }
}

TEST_F(Streams, EventsMeasureElapsedTime) {
  const uint32_t n = 1 << 16;
  auto k = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto b = dev.buffer(n * 4);
  stream.fill(b, 0.0f);
  auto start = stream.record_event();
  for (int i = 0; i < 20; ++i) stream.dispatch(k, {n / 64}, {b}, n);
  auto end = stream.record_event();
  stream.sync();
  double ms = start.elapsed_ms(end);
  EXPECT_GE(ms, 0.0);
  EXPECT_LT(ms, 60000.0);
}

// A timed event in the middle of queued work (on OpenCL the stream's first
// moves it to a profiling queue): the work before it and after it stays in
// order, a sequence recorded before it still replays, and the events time.
TEST_F(Streams, TimedEventsInTheMiddleOfQueuedWork) {
  const uint32_t n = 1000;
  auto k = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto b = dev.buffer(n * 4);
  std::vector<float> host(n);
  std::iota(host.begin(), host.end(), 0.0f);
  stream.write(b, host);
  stream.begin_record();
  stream.dispatch(k, {(n + 63) / 64}, {b}, n);
  auto seq = stream.end_record();
  for (int i = 0; i < 3; ++i) stream.dispatch(k, {(n + 63) / 64}, {b}, n);
  auto start = stream.record_event();
  stream.replay(seq);
  std::vector<float> r(n);
  stream.read(b, r);
  stream.dispatch(k, {(n + 63) / 64}, {b}, n);
  auto end = stream.record_event();
  std::vector<float> last(n);
  stream.read(b, last);
  stream.sync();
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(r[i], i + 4.0f) << i;
    ASSERT_EQ(last[i], i + 5.0f) << i;
  }
  const double ms = start.elapsed_ms(end);
  EXPECT_GE(ms, 0.0);
  EXPECT_LT(ms, 60000.0);
}

TEST_F(Streams, RecordedSequenceReplayedManyTimes) {
  const uint32_t n = 300;
  auto k = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto b = dev.buffer(n * 4);
  stream.fill(b, 0.0f);
  stream.sync();
  stream.begin_record();
  stream.dispatch(k, {(n + 63) / 64}, {b}, n);
  stream.dispatch(k, {(n + 63) / 64}, {b}, n);
  auto seq = stream.end_record();
  for (int i = 0; i < 500; ++i) stream.replay(seq);
  std::vector<float> r(n);
  stream.read(b, r);
  stream.sync();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(r[i], 1000.0f) << i;
}

const char* kScale = R"(#version 450
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer Src { float src[]; };
layout(binding = 1) buffer Dst { float dst[]; };
layout(push_constant) uniform P { uint n; float factor; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < n) dst[i] = src[i] * factor; })";

struct ScalePush {
  uint32_t n;
  float factor;
};

// Backends keep what a dispatch bound (pipelines, descriptors, kernel
// arguments) for the next one: every change of kernel, buffer and push
// constant between consecutive dispatches must still reach the device, queued
// directly and in a recorded sequence.
TEST_F(Streams, ConsecutiveDispatchesChangeKernelsBuffersAndPushConstants) {
  const uint32_t n = 200;
  auto add = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto scale = dev.kernel(porta::glsl(kScale, "scale"));
  auto a = dev.buffer(n * 4), b = dev.buffer(n * 4), c = dev.buffer(n * 4);
  const std::vector<float> zeros(n, 0.0f);  // written, not filled: oclgrind takes fills as uninitialised
  auto run = [&] {
    stream.dispatch(add, {4}, {a}, n);                        // a = 1
    stream.dispatch(add, {4}, {a}, n / 2);                    // a = 2 below n/2: a0
    stream.dispatch(add, {4}, {b}, n);                        // b = 1
    stream.dispatch(scale, {4}, {a, b}, ScalePush{n, 3.0f});  // b = 3 a0
    stream.dispatch(scale, {4}, {b, c}, ScalePush{n, 0.5f});  // c = 1.5 a0
    stream.dispatch(add, {4}, {b}, n);                        // b = 3 a0 + 1
    stream.dispatch(add, {4}, {c}, n);                        // c = 1.5 a0 + 1
  };
  auto check = [&](const char* how) {
    std::vector<float> ra(n), rb(n), rc(n);
    stream.read(a, ra);
    stream.read(b, rb);
    stream.read(c, rc);
    stream.sync();
    for (uint32_t i = 0; i < n; ++i) {
      const float a0 = i < n / 2 ? 2.0f : 1.0f;
      ASSERT_EQ(ra[i], a0) << how << ", a[" << i << "]";
      ASSERT_EQ(rb[i], 3 * a0 + 1) << how << ", b[" << i << "]";
      ASSERT_EQ(rc[i], 1.5f * a0 + 1) << how << ", c[" << i << "]";
    }
  };
  for (auto* buffer : {&a, &b, &c}) stream.write(*buffer, zeros);
  run();
  check("queued");
  stream.begin_record();
  for (auto* buffer : {&a, &b, &c}) stream.write(*buffer, zeros);
  run();
  auto seq = stream.end_record();
  for (int i = 0; i < 3; ++i) {
    stream.replay(seq);
    check("replayed");
  }
}

// A buffer released and another made may come back with the same driver
// handle; what a backend remembers of the last dispatch must not bind the old one.
TEST_F(Streams, BuffersMadeAfterOthersAreReleasedAreBoundAnew) {
  const uint32_t n = 64;
  auto add = dev.kernel(porta::glsl(kAddOne, "add_one"));
  for (int round = 0; round < 20; ++round) {
    auto b = dev.buffer(n * 4);
    const std::vector<float> start(n, static_cast<float>(round));
    stream.write(b, start);
    stream.dispatch(add, {1}, {b}, n);
    std::vector<float> r = read<float>(b, n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(r[i], round + 1.0f) << "round " << round << ", element " << i;
  }
}

// Many small transfers before one sync: more than a backend keeps aside for
// small transfers, so some take its other path; each arrives in order.
TEST_F(Streams, ManySmallTransfersBeforeOneSync) {
  const uint32_t n = 1024, count = 200;  // 200 reads and 200 writes of 4 KiB
  auto add = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto b = dev.buffer(n * 4);
  std::vector<std::vector<float>> in(count, std::vector<float>(n)), out(count, std::vector<float>(n, -1.0f));
  for (uint32_t k = 0; k < count; ++k) {
    std::fill(in[k].begin(), in[k].end(), static_cast<float>(k));
    stream.write(b, in[k]);
    stream.dispatch(add, {n / 64}, {b}, n);
    stream.read(b, out[k]);
  }
  stream.sync();
  for (uint32_t k = 0; k < count; ++k)
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[k][i], k + 1.0f) << "transfer " << k << ", element " << i;
}

// Small transfers of sizes around the limits of each backend's small-transfer
// paths, at unaligned offsets, each queued behind a dispatch (so that a write
// cannot wait for an idle device first), read back before the next write
// lands: every read sees the buffer as a host copy of the writes does.
TEST_F(Streams, SmallTransfersOfManySizesBehindDispatches) {
  const uint64_t bytes = 20000;
  auto add = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto counter = dev.upload(std::vector<float>(64, 0.0f));
  auto b = dev.buffer(bytes);
  stream.fill(b, 0u);
  std::vector<uint8_t> model(bytes, 0);
  std::vector<std::vector<uint8_t>> writes, reads, expected;  // host memory stays valid until the sync
  uint8_t next = 1;
  for (uint64_t size : {1, 3, 255, 256, 496, 497, 1008, 1009, 4080, 4081, 16384}) {
    for (uint64_t offset : {0, 1, 4, 13}) {
      std::vector<uint8_t>& in = writes.emplace_back(size);
      for (uint8_t& x : in) x = next = static_cast<uint8_t>(next * 73 + 11);
      stream.dispatch(add, {1}, {counter}, 64u);
      stream.write(b, in, offset);
      std::copy(in.begin(), in.end(), model.begin() + static_cast<std::ptrdiff_t>(offset));
      // One byte either side as well, where there is one.
      const uint64_t from = offset > 0 ? offset - 1 : 0, to = std::min(bytes, offset + size + 1);
      stream.read(b, reads.emplace_back(to - from, 0xEE), from);
      expected.emplace_back(model.begin() + static_cast<std::ptrdiff_t>(from),
                            model.begin() + static_cast<std::ptrdiff_t>(to));
    }
  }
  std::vector<float> count(64);
  stream.read(counter, count);
  stream.sync();
  for (size_t i = 0; i < reads.size(); ++i) ASSERT_EQ(reads[i], expected[i]) << "transfer " << i;
  EXPECT_EQ(count[0], static_cast<float>(reads.size()));
  EXPECT_EQ(count[63], static_cast<float>(reads.size()));
}

// A sync waits for every kind of operation queued last, whatever kind came
// before it.
TEST_F(Streams, SyncAfterEachKindOfOperation) {
  const uint32_t n = 256;
  auto add = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto a = dev.upload(std::vector<float>(n, 0.0f)), b = dev.buffer(n * 4);
  std::vector<float> r(n);
  stream.read(a, r);
  stream.dispatch(add, {n / 64}, {a}, n);  // after a read: the sync waits for this too
  stream.sync();
  stream.read(a, r);
  stream.sync();
  EXPECT_EQ(r[0], 1.0f);
  stream.read(a, r);
  stream.copy(a, b, n * 4);
  stream.sync();
  stream.read(b, r);
  stream.fill(a, 0u);
  stream.sync();
  EXPECT_EQ(r[n - 1], 1.0f);
  stream.read(a, r);
  stream.sync();
  EXPECT_EQ(r[n - 1], 0.0f);
}

// Reads into the same host memory before one sync land in stream order,
// whatever path each takes (small ones may be copied out only at the sync).
TEST_F(Streams, LaterReadsIntoTheSameHostMemoryWin) {
  const uint32_t small = 256, large = 1 << 18;  // floats: 1 KiB and 1 MiB
  auto a = dev.upload(std::vector<float>(small, 1.0f));
  auto b = dev.upload(std::vector<float>(large, 2.0f));
  std::vector<float> host(large, 0.0f);
  stream.read(a, std::span<float>(host.data(), small));
  stream.read(b, std::span<float>(host));
  stream.sync();
  for (uint32_t i = 0; i < large; ++i) ASSERT_EQ(host[i], 2.0f) << "small read, then large: element " << i;
  stream.read(b, std::span<float>(host));
  stream.read(a, std::span<float>(host.data() + 8, small));
  stream.sync();
  for (uint32_t i = 0; i < large; ++i)
    ASSERT_EQ(host[i], i >= 8 && i < 8 + small ? 1.0f : 2.0f) << "large read, then small: element " << i;
}

// A sequence outlives the stream that recorded and last replayed it: another
// stream replays it (after waiting for that replay), and a sequence destroyed
// while its replay runs waits for it.
TEST_F(Streams, SequenceReplayedAfterItsStreamIsGone) {
  const uint32_t n = 256;
  auto add = dev.kernel(porta::glsl(kAddOne, "add_one"));
  const std::vector<float> zeros(n, 0.0f);
  auto b = dev.upload(zeros);
  std::optional<porta::Sequence> seq;
  {
    auto other = dev.stream();
    other.begin_record();
    other.dispatch(add, {n / 64}, {b}, n);
    seq = other.end_record();
    other.replay(*seq);
  }
  for (int i = 0; i < 3; ++i) stream.replay(*seq);
  {
    stream.begin_record();
    stream.dispatch(add, {n / 64}, {b}, n);
    auto last = stream.end_record();
    stream.replay(last);
  }  // destroyed while its replay may still run
  std::vector<float> r = read<float>(b, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(r[i], 5.0f) << i;
}

TEST_F(Streams, TwoThreadsWithTheirOwnStreams) {
  if (porta::test::on_oclgrind(dev))
    GTEST_SKIP() << "oclgrind 21.10 runs one kernel at a time per context: two threads enqueuing at once "
                    "abort it (Context.cpp: Assertion 'm_kernelInvocation == NULL')";
  auto k = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto work = [&](float* result) {
    auto s = dev.stream();
    const uint32_t n = 4096;
    auto b = dev.buffer(n * 4);
    s.fill(b, 0.0f);
    for (int i = 0; i < 50; ++i) s.dispatch(k, {n / 64}, {b}, n);
    std::vector<float> r(n);
    s.read(b, r);
    s.sync();
    *result = std::accumulate(r.begin(), r.end(), 0.0f);
  };
  float r1 = 0, r2 = 0;
  std::thread t1(work, &r1), t2(work, &r2);
  t1.join();
  t2.join();
  EXPECT_EQ(r1, 4096.0f * 50);
  EXPECT_EQ(r2, 4096.0f * 50);
}

// ---- bad input: a clear error, nothing lost, no crash -----------------------

TEST_F(Streams, WrongNumberOfBuffers) {
  auto k = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto b = dev.buffer(256);
  expect_refused_dispatch(k, {1}, {b, b}, "2 buffers given; the kernel has 1", 64u);
  expect_refused_dispatch(k, {1}, {}, "0 buffers given", 64u);
}

TEST_F(Streams, PushConstantsOfTheWrongSize) {
  auto k = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto b = dev.buffer(256);
  expect_refused_dispatch(k, {1}, {b}, "8 bytes of push constants given; the kernel's block is 4 bytes",
                          uint64_t{64});
  expect_refused_dispatch(k, {1}, {b}, "0 bytes of push constants");
}

TEST_F(Streams, ZeroAndOverLimitGroupCounts) {
  auto k = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto b = dev.buffer(256);
  expect_refused_dispatch(k, {0, 1, 1}, {b}, "group count x is 0", 64u);
  expect_refused_dispatch(k, {1, 1, 0}, {b}, "group count z is 0", 64u);
  uint32_t max_y = dev.info().limits.max_workgroup_count[1];
  if (max_y < UINT32_MAX) expect_refused_dispatch(k, {1, max_y + 1, 1}, {b}, "exceeds", 64u);
  // The stream still works after refusals.
  stream.fill(b, 0.0f);
  stream.dispatch(k, {1}, {b}, 64u);
  std::vector<float> r(64);
  stream.read(b, r);
  stream.sync();
  EXPECT_EQ(r[63], 1.0f);
}

TEST_F(Streams, ReadingOrWritingPastTheEnd) {
  auto b = dev.buffer(100);
  std::vector<uint8_t> big(101);
  expect_error(
      PORTA_ERROR_INVALID_ARGUMENT, [&] { stream.write(b, big); }, "past the end of the buffer (100 bytes)");
  expect_error(
      PORTA_ERROR_INVALID_ARGUMENT, [&] { stream.read(b, big); }, "past the end");
  std::vector<uint8_t> small(8);
  expect_error(
      PORTA_ERROR_INVALID_ARGUMENT, [&] { stream.write(b, small, 96); }, "[96, 104)");
  expect_error(
      PORTA_ERROR_INVALID_ARGUMENT, [&] { stream.read(b, small, UINT64_MAX - 2); }, "past the end");
  expect_error(
      PORTA_ERROR_INVALID_ARGUMENT, [&] { stream.fill(b, 0u, 2, 4); }, "multiples of 4");
  expect_error(
      PORTA_ERROR_INVALID_ARGUMENT, [&] { b.write(std::span<const uint8_t>(big)); }, "past the end");
  expect_error(
      PORTA_ERROR_INVALID_ARGUMENT, [&] { dev.buffer(0); }, "size is 0");
}

TEST_F(Streams, BufferOfAnotherDevice) {
  porta::Device other = open_under_test();  // a second device object, even on the same hardware
  auto k = dev.kernel(porta::glsl(kAddOne, "add_one"));
  auto foreign = other.buffer(256);
  expect_error(
      PORTA_ERROR_INVALID_HANDLE, [&] { stream.dispatch(k, {1}, {foreign}, 64u); }, "belongs to");
  std::vector<uint8_t> data(4);
  expect_error(
      PORTA_ERROR_INVALID_HANDLE, [&] { stream.write(foreign, data); }, "belongs to");
  auto other_kernel = other.kernel(porta::glsl(kAddOne, "add_one"));
  auto mine = dev.buffer(256);
  expect_error(
      PORTA_ERROR_INVALID_HANDLE, [&] { stream.dispatch(other_kernel, {1}, {mine}, 64u); }, "belongs to");
}

TEST_F(Streams, AllocationLargerThanTheDeviceAllows) {
  uint64_t too_big = dev.info().limits.max_buffer_bytes;
  ASSERT_GT(too_big, 0u);
  expect_error(
      PORTA_ERROR_OUT_OF_MEMORY, [&] { dev.buffer(too_big + 1); }, "exceeds");
  // And something the limit allows but no machine has.
  try {
    dev.buffer(uint64_t{1} << 62);
    ADD_FAILURE() << "a 4 EiB buffer was created";
  } catch (const porta::Error& e) {
    EXPECT_EQ(e.status(), PORTA_ERROR_OUT_OF_MEMORY) << e.what();
  }
}

}  // namespace
