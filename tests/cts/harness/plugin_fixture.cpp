#include "harness/plugin_fixture.hpp"

#include <cstdio>
#include <cstring>

#include "porta_translator/translator.hpp"

namespace porta::test {
namespace {

namespace tr = porta::translator;

// FNV-1a, enough to tell the test kernels apart.
void hash_into(uint64_t& h, const void* data, size_t size) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
}

}  // namespace

GlslKernel::GlslKernel(const std::string& glsl, const std::string& name, porta_kernel_language language,
                       const std::vector<tr::SpecValue>& specs)
    : name_(name) {
  spirv_ = tr::prepare(tr::compile_glsl(glsl, name));
  const tr::KernelSignature sig = tr::reflect(spirv_);
  for (const tr::SpecConstant& sc : sig.spec_constants) {
    uint64_t bits = sc.default_bits;
    for (const tr::SpecValue& s : specs)
      if (s.id == sc.id) bits = s.bits;
    specs_.push_back({sc.id, static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32), sc.width});
  }
  for (const tr::BufferBinding& b : sig.buffers)
    buffers_.push_back(
        {b.set, b.binding, b.array_index,
         b.kind == tr::BufferKind::Uniform ? PORTA_BUFFER_KIND_UNIFORM : PORTA_BUFFER_KIND_STORAGE,
         static_cast<uint32_t>(b.access)});
  const tr::KernelSignature specialised = tr::reflect(spirv_, specs);
  tr::resolve_local_size(sig, specs, desc_.workgroup_size);
  desc_.push_constant_size = sig.push_constant_size;
  desc_.shared_memory_bytes = specialised.shared_memory_bytes;
  desc_.required_features = sig.required_features;
  entry_ = sig.entry_point;
  if (language != PORTA_LANGUAGE_SPIRV) {
    tr::Translation t = tr::translate(spirv_, {tr::target_for_language(language), specs});
    entry_ = t.entry_point;
    source_ = std::move(t.source);
  }
  point_desc();
}

void GlslKernel::set_source(std::string source) {
  source_ = std::move(source);
  point_desc();
}

void GlslKernel::point_desc() {
  uint64_t h = 1469598103934665603ull;
  hash_into(h, spirv_.data(), spirv_.size() * sizeof(uint32_t));
  hash_into(h, specs_.data(), specs_.size() * sizeof(porta_kernel_spec_value));
  hash_into(h, source_.data(), source_.size());
  char key[40];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(h));
  key_ = key;
  desc_.spirv = spirv_.data();
  desc_.spirv_words = spirv_.size();
  desc_.source = source_.empty() ? nullptr : source_.c_str();
  desc_.source_size = source_.size();
  desc_.entry_point = entry_.c_str();
  desc_.name = name_.c_str();
  desc_.buffer_count = static_cast<uint32_t>(buffers_.size());
  desc_.buffers = buffers_.data();
  desc_.spec_count = static_cast<uint32_t>(specs_.size());
  desc_.specs = specs_.data();
  desc_.cache_key = key_.c_str();
}

void PluginTest::open(const Plugin& plugin, uint32_t index) {
  plugin_ = &plugin;
  if (!plugin.available()) GTEST_SKIP() << "plugin unavailable: " << plugin.reason;
  api_ = plugin.api;
  ASSERT_LT(index, api_->device_count());
  ASSERT_EQ(api_->device_info(index, &info), PORTA_SUCCESS) << error();
  ASSERT_EQ(api_->device_open(index, &device), PORTA_SUCCESS) << error();
  ASSERT_EQ(api_->stream_create(device, &stream), PORTA_SUCCESS) << error();
}

void PluginTest::TearDown() {
  if (!api_) return;
  // Nothing is destroyed while queued work uses it (libporta keeps such
  // objects alive): the streams finish first.
  if (stream) api_->stream_sync(stream);
  for (porta_plugin_stream s : streams_) api_->stream_sync(s);
  for (porta_plugin_kernel k : kernels_) api_->kernel_destroy(k);
  for (porta_plugin_buffer b : buffers_) api_->buffer_destroy(b);
  for (porta_plugin_stream s : streams_) api_->stream_destroy(s);
  if (stream) api_->stream_destroy(stream);
  if (device) api_->device_close(device);
}

porta_plugin_buffer PluginTest::buffer(uint64_t size) {
  porta_plugin_buffer b = nullptr;
  EXPECT_EQ(api_->buffer_create(device, size, &b), PORTA_SUCCESS) << size << " bytes: " << error();
  if (b) {
    buffers_.push_back(b);
    buffer_sizes_.push_back(size);
  }
  return b;
}

porta_plugin_binding PluginTest::whole(porta_plugin_buffer b) const {
  for (size_t i = 0; i < buffers_.size(); ++i)
    if (buffers_[i] == b) return {b, 0, buffer_sizes_[i]};
  ADD_FAILURE() << "whole(): the buffer was not made by buffer()";
  return {b, 0, 0};
}

porta_plugin_stream PluginTest::new_stream() {
  porta_plugin_stream s = nullptr;
  EXPECT_EQ(api_->stream_create(device, &s), PORTA_SUCCESS) << error();
  if (s) streams_.push_back(s);
  return s;
}

porta_status PluginTest::try_kernel(const porta_kernel_desc& desc, porta_plugin_kernel* out) {
  *out = nullptr;
  const porta_status status = api_->kernel_create(device, &desc, out);
  if (*out) kernels_.push_back(*out);
  return status;
}

porta_plugin_kernel PluginTest::kernel(const porta_kernel_desc& desc) {
  porta_plugin_kernel k = nullptr;
  EXPECT_EQ(try_kernel(desc, &k), PORTA_SUCCESS) << error();
  return k;
}

std::unique_ptr<GlslKernel> PluginTest::glsl(const std::string& source, const std::string& name,
                                             const std::vector<tr::SpecValue>& specs) const {
  return std::make_unique<GlslKernel>(source, name, api_->language, specs);
}

void PluginTest::sync(porta_plugin_stream s) {
  ASSERT_EQ(api_->stream_sync(s ? s : stream), PORTA_SUCCESS) << error();
}

void PluginTest::write(porta_plugin_buffer b, const void* data, uint64_t bytes, uint64_t offset,
                       porta_plugin_stream s) {
  ASSERT_EQ(api_->stream_write(s ? s : stream, b, offset, data, bytes), PORTA_SUCCESS) << error();
}

void PluginTest::read(porta_plugin_buffer b, void* data, uint64_t bytes, uint64_t offset,
                      porta_plugin_stream s) {
  ASSERT_EQ(api_->stream_read(s ? s : stream, b, offset, data, bytes), PORTA_SUCCESS) << error();
}

void PluginTest::dispatch(porta_plugin_kernel k, uint32_t gx, uint32_t gy, uint32_t gz,
                          std::vector<porta_plugin_buffer> args, const void* push, uint32_t push_size,
                          porta_plugin_stream s) {
  std::vector<porta_plugin_binding> bindings;
  for (porta_plugin_buffer b : args) bindings.push_back(whole(b));
  dispatch_ranges(k, gx, gy, gz, std::move(bindings), push, push_size, s);
}

void PluginTest::dispatch_ranges(porta_plugin_kernel k, uint32_t gx, uint32_t gy, uint32_t gz,
                                 std::vector<porta_plugin_binding> args, const void* push, uint32_t push_size,
                                 porta_plugin_stream s) {
  const uint32_t groups[3] = {gx, gy, gz};
  ASSERT_EQ(api_->stream_dispatch(s ? s : stream, k, groups, args.data(), static_cast<uint32_t>(args.size()),
                                  push_size ? push : nullptr, push_size),
            PORTA_SUCCESS)
      << error();
}

::testing::AssertionResult every_word_is(const std::vector<uint32_t>& words, uint32_t value) {
  for (size_t i = 0; i < words.size(); ++i)
    if (words[i] != value)
      return ::testing::AssertionFailure() << "word " << i << " is " << words[i] << ", not " << value;
  return ::testing::AssertionSuccess();
}

}  // namespace porta::test
