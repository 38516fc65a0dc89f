// The one fixture every plugin test uses: a device of a plugin opened through
// its table, a stream, and buffers and kernels destroyed after the test; and
// kernels built from GLSL the way libporta builds them for the plugin.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "harness/test_host.hpp"
#include "porta/plugin.h"
#include "porta_translator/translator.hpp"

namespace porta::test {

// A kernel description as libporta hands it to a plugin: the GLSL compiled to
// SPIR-V, validated, optimised, reflected, and translated into the plugin's
// language with the specialization constants fixed (`specs`: the values given,
// each at its constant's width; the others keep their defaults). `desc` points into this
// object. Construction throws porta::translator::Error when the front end or
// translator refuses the kernel.
class GlslKernel {
 public:
  GlslKernel(const std::string& glsl, const std::string& name, porta_kernel_language language,
             const std::vector<porta::translator::SpecValue>& specs = {});
  GlslKernel(const GlslKernel&) = delete;
  GlslKernel& operator=(const GlslKernel&) = delete;

  const porta_kernel_desc& desc() const { return desc_; }
  // The translated source (empty for SPIR-V); changing it re-points desc().
  const std::string& source() const { return source_; }
  void set_source(std::string source);

 private:
  void point_desc();

  std::string name_, entry_, source_, key_;
  std::vector<uint32_t> spirv_;
  std::vector<porta_kernel_buffer_desc> buffers_;
  std::vector<porta_kernel_spec_value> specs_;
  porta_kernel_desc desc_{};
};

// Passes when every word of `words` is `value`; else names the first that is not.
::testing::AssertionResult every_word_is(const std::vector<uint32_t>& words, uint32_t value);

class PluginTest : public ::testing::Test {
 protected:
  // Opens device `index` of `plugin` and a stream on it; skips the test, with
  // the plugin's reason, where the plugin is unavailable.
  void open(const Plugin& plugin, uint32_t index);
  void TearDown() override;

  const porta_plugin_api& api() const { return *api_; }
  porta_kernel_language language() const { return api_->language; }

  // A buffer of `size` bytes, destroyed after the test.
  porta_plugin_buffer buffer(uint64_t size);
  // All of a buffer made by buffer(), as a dispatch binds it.
  porta_plugin_binding whole(porta_plugin_buffer b) const;
  // A stream besides `stream`, destroyed (after a sync) after the test.
  porta_plugin_stream new_stream();
  // A kernel that must build; destroyed after the test.
  porta_plugin_kernel kernel(const porta_kernel_desc& desc);
  porta_plugin_kernel kernel(const GlslKernel& glsl) { return kernel(glsl.desc()); }
  // kernel_create's own answer; a kernel it makes is destroyed after the test.
  porta_status try_kernel(const porta_kernel_desc& desc, porta_plugin_kernel* out);
  // A kernel from GLSL for this plugin's language.
  std::unique_ptr<GlslKernel> glsl(const std::string& source, const std::string& name,
                                   const std::vector<porta::translator::SpecValue>& specs = {}) const;

  void sync(porta_plugin_stream s = nullptr);
  // Writes `bytes` bytes from `data` to `b` at `offset`, and reads them back.
  void write(porta_plugin_buffer b, const void* data, uint64_t bytes, uint64_t offset = 0,
             porta_plugin_stream s = nullptr);
  void read(porta_plugin_buffer b, void* data, uint64_t bytes, uint64_t offset = 0,
            porta_plugin_stream s = nullptr);
  void dispatch(porta_plugin_kernel k, uint32_t gx, uint32_t gy, uint32_t gz,
                std::vector<porta_plugin_buffer> args, const void* push, uint32_t push_size,
                porta_plugin_stream s = nullptr);
  void dispatch_ranges(porta_plugin_kernel k, uint32_t gx, uint32_t gy, uint32_t gz,
                       std::vector<porta_plugin_binding> args, const void* push, uint32_t push_size,
                       porta_plugin_stream s = nullptr);
  template <class Push>
  void dispatch(porta_plugin_kernel k, uint32_t gx, std::vector<porta_plugin_buffer> args, const Push& push,
                porta_plugin_stream s = nullptr) {
    dispatch(k, gx, 1, 1, std::move(args), &push, sizeof push, s);
  }

  static std::string error() { return TestHost::last_error(); }

  const Plugin* plugin_ = nullptr;
  const porta_plugin_api* api_ = nullptr;
  porta_device_info info{};
  porta_plugin_device device = nullptr;
  porta_plugin_stream stream = nullptr;

 private:
  std::vector<porta_plugin_stream> streams_;
  std::vector<porta_plugin_buffer> buffers_;
  std::vector<uint64_t> buffer_sizes_;  // of buffers_
  std::vector<porta_plugin_kernel> kernels_;
};

}  // namespace porta::test
