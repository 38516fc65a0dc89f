// Buffers and the transfers between them and the host: sizes from one byte
// to hundreds of MiB, byte offsets, copies and fills.
#include <algorithm>
#include <cstring>

#include "cts.hpp"

namespace porta::test {
namespace {

PORTA_CTS_SUITE(Buffers);

// Bytes that differ from their neighbours and from those 64 KiB away.
std::vector<uint8_t> pattern(uint64_t size) {
  std::vector<uint8_t> bytes(size);
  for (uint64_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(i * 131 + (i >> 16) + 7);
  return bytes;
}

TEST_P(Buffers, CreateAndDestroyOfManySizes) {
  for (uint64_t size : {uint64_t{1}, uint64_t{3}, uint64_t{4}, uint64_t{4097}, uint64_t{1} << 20}) {
    porta_plugin_buffer b = nullptr;
    ASSERT_EQ(api().buffer_create(device, size, &b), PORTA_SUCCESS) << size << ": " << error();
    ASSERT_NE(b, nullptr);
    api().buffer_destroy(b);
  }
}

// Transfers and copies are byte-exact and need no alignment.
TEST_P(Buffers, WriteReadAndCopyAtByteOffsets) {
  for (uint64_t size : {uint64_t{1}, uint64_t{4}, uint64_t{4097}}) {
    for (uint64_t offset : {uint64_t{0}, uint64_t{3}, uint64_t{7}}) {
      SCOPED_TRACE(std::to_string(size) + " bytes at offset " + std::to_string(offset));
      const std::vector<uint8_t> in = pattern(size);
      std::vector<uint8_t> out(size, 0), copied(size, 0);
      porta_plugin_buffer b = buffer(size + offset), c = buffer(size + 5);
      write(b, in.data(), size, offset);
      read(b, out.data(), size, offset);
      ASSERT_EQ(api().stream_copy(stream, b, offset, c, 5, size), PORTA_SUCCESS) << error();
      read(c, copied.data(), size, 5);
      sync();
      ASSERT_TRUE(in == out);
      ASSERT_TRUE(in == copied);
    }
  }
}

// Write, read and copy of the largest size the tests use (or the device's
// largest buffer, where that is smaller), at an odd offset.
TEST_P(Buffers, LargeRoundTripAndCopy) {
  const uint64_t offset = 7, size = std::min<uint64_t>(256ull << 20, info.limits.max_buffer_bytes - offset);
  const std::vector<uint8_t> in = pattern(size);
  std::vector<uint8_t> out(size, 0);
  porta_plugin_buffer a = buffer(size + offset), b = buffer(size);
  write(a, in.data(), size, offset);
  ASSERT_EQ(api().stream_copy(stream, a, offset, b, 0, size), PORTA_SUCCESS) << error();
  read(b, out.data(), size);
  sync();
  ASSERT_TRUE(in == out);
  std::fill(out.begin(), out.end(), 0);
  read(a, out.data(), size, offset);
  sync();
  ASSERT_TRUE(in == out);
}

TEST_P(Buffers, CopyBetweenBuffersAtOffsets) {
  const std::vector<uint8_t> src = pattern(1000);
  std::vector<uint8_t> dst(1000, 0);
  porta_plugin_buffer a = buffer(1000), b = buffer(1000), c = buffer(1000);
  write(a, src.data(), 1000);
  // A copy into a part of b, then b at an odd offset into c.
  ASSERT_EQ(api().stream_fill(stream, b, 0, 1000, 0), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_copy(stream, a, 100, b, 0, 900), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_copy(stream, b, 1, c, 3, 997), PORTA_SUCCESS) << error();
  read(b, dst.data(), 1000);
  sync();
  EXPECT_EQ(std::memcmp(dst.data(), src.data() + 100, 900), 0);
  for (int i = 900; i < 1000; ++i) ASSERT_EQ(dst[i], 0) << i;
  std::vector<uint8_t> third(997);
  read(c, third.data(), 997, 3);
  sync();
  EXPECT_EQ(std::memcmp(third.data(), dst.data() + 1, 997), 0);
  // Two parts of one buffer that do not overlap.
  ASSERT_EQ(api().stream_copy(stream, a, 0, a, 500, 400), PORTA_SUCCESS) << error();
  read(a, dst.data(), 1000);
  sync();
  EXPECT_EQ(std::memcmp(dst.data() + 500, src.data(), 400), 0);
  EXPECT_EQ(std::memcmp(dst.data(), src.data(), 500), 0);
  EXPECT_EQ(std::memcmp(dst.data() + 900, src.data() + 900, 100), 0);
}

// A 32-bit pattern over the whole buffer, then over a part at an offset;
// the bytes around that part keep their values.
TEST_P(Buffers, FillWithOffsets) {
  const uint32_t n = 3000;
  porta_plugin_buffer a = buffer(n * 4), b = buffer(n * 4);
  ASSERT_EQ(api().stream_fill(stream, a, 0, n * 4, 0xdeadbeefu), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_fill(stream, a, 8, 16, 7u), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_fill(stream, a, 400, 40, 0xabcd1234u), PORTA_SUCCESS) << error();
  ASSERT_EQ(api().stream_copy(stream, a, 0, b, 0, n * 4), PORTA_SUCCESS) << error();
  std::vector<uint32_t> out(n, 1);
  read(b, out.data(), n * 4);
  sync();
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t expected = (i >= 2 && i < 6) ? 7u : (i >= 100 && i < 110) ? 0xabcd1234u : 0xdeadbeefu;
    ASSERT_EQ(out[i], expected) << i;
  }
}

// A fill over part of a write queued before it (stream order), in a buffer
// whose size is not a multiple of 4: the bytes after the fill keep theirs.
TEST_P(Buffers, FillAfterWriteAndAtTheEnd) {
  porta_plugin_buffer a = buffer(1002);
  std::vector<uint8_t> src(1002, 0x11), dst(1002, 0);
  write(a, src.data(), 1002);
  ASSERT_EQ(api().stream_fill(stream, a, 996, 4, 0x04030201u), PORTA_SUCCESS) << error();
  read(a, dst.data(), 1002);
  sync();
  for (int i = 0; i < 996; ++i) ASSERT_EQ(dst[i], 0x11) << i;
  EXPECT_EQ(dst[996], 1);
  EXPECT_EQ(dst[997], 2);
  EXPECT_EQ(dst[998], 3);
  EXPECT_EQ(dst[999], 4);
  EXPECT_EQ(dst[1000], 0x11);
  EXPECT_EQ(dst[1001], 0x11);
}

}  // namespace
}  // namespace porta::test
