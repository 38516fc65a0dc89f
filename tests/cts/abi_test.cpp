// The kernel ABI every plugin must implement (plugin.h, translator/README.md):
// buffer parameters at any descriptor set in (set, binding, array element)
// order, uniform blocks, arrays of blocks, blocks aliasing one binding, each
// buffer's size (`.length()`), and kernels without buffers.
#include <cstring>
#include <vector>

#include "cts.hpp"
#include "support/abi_kernels.hpp"

namespace porta::test {
namespace {

namespace abi = abi_kernels;

PORTA_CTS_SUITE(Abi);

// The descriptors a kernel declares, as libporta hands them to the plugin.
TEST_P(Abi, ParametersAreDescribedInSetBindingElementOrder) {
  auto sets = glsl(abi::kSets, "abi_sets");
  ASSERT_EQ(sets->desc().buffer_count, 3u);
  const porta_kernel_buffer_desc* b = sets->desc().buffers;
  EXPECT_EQ(b[0].set, 1u);
  EXPECT_EQ(b[1].set, 2u);
  EXPECT_EQ(b[1].binding, 0u);
  EXPECT_EQ(b[2].set, 2u);
  EXPECT_EQ(b[2].binding, 1u);
  auto array = glsl(abi::kArrayOfBuffers, "abi_array");
  ASSERT_EQ(array->desc().buffer_count, 4u);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(array->desc().buffers[i].binding, 0u);
    EXPECT_EQ(array->desc().buffers[i].array_index, i);
  }
  auto uniform = glsl(abi::kUniform, "abi_uniform");
  ASSERT_EQ(uniform->desc().buffer_count, 3u);
  EXPECT_EQ(uniform->desc().buffers[0].kind, uint32_t{PORTA_BUFFER_KIND_UNIFORM});
  EXPECT_EQ(uniform->desc().buffers[0].access, uint32_t{PORTA_ACCESS_READ});
  EXPECT_EQ(uniform->desc().buffers[1].kind, uint32_t{PORTA_BUFFER_KIND_STORAGE});
  auto aliased = glsl(abi::kAliasedViews, "abi_aliased");
  ASSERT_EQ(aliased->desc().buffer_count, 1u);
  EXPECT_EQ(aliased->desc().buffers[0].access, uint32_t{PORTA_ACCESS_READ_WRITE});
  EXPECT_EQ(glsl(abi::kNoBuffers, "abi_no_buffers")->desc().buffer_count, 0u);
}

TEST_P(Abi, LengthOfRuntimeArraysIsTheBufferSize) {
  porta_plugin_kernel kern = kernel(*glsl(abi::kLength, "abi_length"));
  ASSERT_NE(kern, nullptr);
  // 37 floats after the tag; 8 uints; 5 vec4s and 8 bytes that hold no sixth.
  porta_plugin_buffer header = buffer(4 + 37 * 4), lengths = buffer(8 * 4), vec4s = buffer(5 * 16 + 8);
  const uint32_t tag = 0xabcd1234u;
  write(header, &tag, 4);
  ASSERT_EQ(api().stream_fill(stream, lengths, 0, 8 * 4, 0), PORTA_SUCCESS) << error();
  dispatch(kern, 1, 1, 1, {header, lengths, vec4s}, nullptr, 0);
  std::vector<uint32_t> got(8);
  read(lengths, got.data(), 8 * 4);
  sync();
  EXPECT_EQ(got[0], 37u);
  EXPECT_EQ(got[1], 8u);
  EXPECT_EQ(got[2], 5u);
  EXPECT_EQ(got[3], tag);
}

// A bound range is the whole buffer to the kernel: index 0 at its offset,
// `.length()` from its size, nothing outside it touched.
TEST_P(Abi, RangesAreBoundAsWholeBuffers) {
  porta_plugin_kernel kern = kernel(*glsl(abi::kLength, "abi_length"));
  ASSERT_NE(kern, nullptr);
  const uint64_t a = info.binding_offset_alignment;
  ASSERT_GT(a, 0u) << "the plugin reports no binding_offset_alignment";
  ASSERT_GE(info.max_binding_bytes, 4096u) << "the plugin reports no max_binding_bytes";
  const uint64_t header_bytes = 4 + 37 * 4, vec4_bytes = 5 * 16 + 8;
  porta_plugin_buffer header = buffer(a + header_bytes + 64), lengths = buffer(2 * a + 8 * 4 + 64),
                      vec4s = buffer(a + vec4_bytes + 64);
  const uint32_t tag = 0x5eed1234u;
  write(header, &tag, 4, a);
  ASSERT_EQ(api().stream_fill(stream, lengths, 0, 2 * a + 8 * 4 + 64, 0xffffffffu), PORTA_SUCCESS) << error();
  dispatch_ranges(kern, 1, 1, 1,
                  std::vector<porta_plugin_binding>{
                      {header, a, header_bytes}, {lengths, 2 * a, 8 * 4}, {vec4s, a, vec4_bytes}},
                  nullptr, 0);
  std::vector<uint32_t> got((2 * a + 8 * 4 + 64) / 4);
  read(lengths, got.data(), got.size() * 4);
  sync();
  const size_t at = 2 * a / 4;
  EXPECT_EQ(got[at + 0], 37u);
  EXPECT_EQ(got[at + 1], 8u);
  EXPECT_EQ(got[at + 2], 5u);
  EXPECT_EQ(got[at + 3], tag);
  for (size_t i = 0; i < got.size(); ++i) {
    if (i >= at && i < at + 4) continue;
    ASSERT_EQ(got[i], 0xffffffffu) << "word " << i << " is outside the bound range";
  }
}

TEST_P(Abi, BlocksAliasingOneBindingViewOneBuffer) {
  porta_plugin_kernel kern = kernel(*glsl(abi::kAliasedViews, "abi_aliased"));
  ASSERT_NE(kern, nullptr);
  const uint32_t n = 100;
  std::vector<float> values(2 * n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) values[i] = 1.5f * static_cast<float>(i) - 20.0f;
  porta_plugin_buffer b = buffer(2 * n * 4);
  write(b, values.data(), 2 * n * 4);
  dispatch(kern, (n + 63) / 64, {b}, n);
  std::vector<float> got(2 * n);
  read(b, got.data(), 2 * n * 4);
  sync();
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &values[i], 4);
    ASSERT_EQ(got[i], values[i]) << i;
    ASSERT_EQ(got[n + i], values[i] + static_cast<float>(bits >> 16)) << i;
  }
}

TEST_P(Abi, UniformBlockWithVec4AndScalars) {
  porta_plugin_kernel kern = kernel(*glsl(abi::kUniform, "abi_uniform"));
  ASSERT_NE(kern, nullptr);
  const uint32_t n = 150;
  // std140: vec4 scale at 0, float bias at 16, uint n at 20, int shift at 24.
  unsigned char params[28];
  const float scale[4] = {1.0f, -2.0f, 3.0f, 0.5f}, bias = 0.25f;
  const int32_t shift = -7;
  std::memcpy(params, scale, 16);
  std::memcpy(params + 16, &bias, 4);
  std::memcpy(params + 20, &n, 4);
  std::memcpy(params + 24, &shift, 4);
  std::vector<float> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  porta_plugin_buffer bp = buffer(sizeof params), bx = buffer(n * 4), by = buffer(n * 4);
  write(bp, params, sizeof params);
  write(bx, x.data(), n * 4);
  dispatch(kern, (n + 63) / 64, 1, 1, {bp, bx, by}, nullptr, 0);
  std::vector<float> y(n);
  read(by, y.data(), n * 4);
  sync();
  // Every product and sum is exact: fused or not, the result is the same.
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y[i], x[i] * scale[i % 4] + bias + float(shift)) << i;
}

TEST_P(Abi, BuffersAtSetsOneAndTwo) {
  porta_plugin_kernel kern = kernel(*glsl(abi::kSets, "abi_sets"));
  ASSERT_NE(kern, nullptr);
  const uint32_t n = 200;
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(1000 - 2 * static_cast<int>(i));
  }
  porta_plugin_buffer ba = buffer(n * 4), bb = buffer(n * 4), bc = buffer(n * 4);
  write(ba, a.data(), n * 4);
  write(bb, b.data(), n * 4);
  dispatch(kern, (n + 63) / 64, {ba, bb, bc}, n);
  std::vector<float> c(n);
  read(bc, c.data(), n * 4);
  sync();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], 3.0f * a[i] - b[i]) << i;
}

TEST_P(Abi, ArrayOfThreeBuffers) {
  porta_plugin_kernel kern = kernel(*glsl(abi::kArrayOfBuffers, "abi_array"));
  ASSERT_NE(kern, nullptr);
  const uint32_t n = 130;
  // Element k holds n + k floats: .length() tells the three apart.
  std::vector<std::vector<float>> x(3);
  std::vector<porta_plugin_buffer> args;
  for (uint32_t k = 0; k < 3; ++k) {
    x[k].resize(n + k);
    for (uint32_t i = 0; i < n + k; ++i) x[k][i] = static_cast<float>((k + 1) * 100 + i);
    args.push_back(buffer((n + k) * 4));
    write(args.back(), x[k].data(), (n + k) * 4);
  }
  porta_plugin_buffer out = buffer((n + 3) * 4);
  args.push_back(out);
  dispatch(kern, (n + 63) / 64, args, n);
  std::vector<float> y(n + 3);
  read(out, y.data(), (n + 3) * 4);
  sync();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y[i], x[0][i] + 2.0f * x[1][i] + 4.0f * x[2][i]) << i;
  for (uint32_t k = 0; k < 3; ++k) EXPECT_EQ(y[n + k], static_cast<float>(n + k)) << "ins[" << k << "]";
}

TEST_P(Abi, KernelWithoutBuffersRuns) {
  porta_plugin_kernel none = kernel(*glsl(abi::kNoBuffers, "abi_no_buffers"));
  ASSERT_NE(none, nullptr);
  const uint32_t groups[3] = {4, 1, 1};
  ASSERT_EQ(api().stream_dispatch(stream, none, groups, nullptr, 0, nullptr, 0), PORTA_SUCCESS) << error();
  sync();
  // The stream goes on: a kernel with buffers after it sees its own inputs.
  porta_plugin_kernel sets = kernel(*glsl(abi::kSets, "abi_sets"));
  ASSERT_NE(sets, nullptr);
  const float a = 5.0f, b = 1.0f;
  porta_plugin_buffer ba = buffer(4), bb = buffer(4), bc = buffer(4);
  write(ba, &a, 4);
  write(bb, &b, 4);
  ASSERT_EQ(api().stream_dispatch(stream, none, groups, nullptr, 0, nullptr, 0), PORTA_SUCCESS) << error();
  dispatch(sets, 1, {ba, bb, bc}, 1u);
  float c = 0;
  read(bc, &c, 4);
  sync();
  EXPECT_EQ(c, 14.0f);
}

}  // namespace
}  // namespace porta::test
