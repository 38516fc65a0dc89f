// porta-run: one kernel (GLSL or SPIR-V) on one backend, with buffers from
// files or generated, push constants and groups from the command line; chosen
// buffers are written to files or printed. For debugging a kernel on one
// vendor's device.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernel_io.hpp"
#include "porta/porta.hpp"
#include "porta_cli.hpp"

using namespace porta::conformance;

namespace {

struct Print {
  uint32_t index;
  std::string as = "f32";
  uint64_t count = 16;
};

uint32_t parse_index(const std::string& text, const std::string& what) {
  const uint64_t v = parse_size(text, what);
  if (v > 1024) throw UsageError(what + " '" + text + "' is not a buffer index");
  return static_cast<uint32_t>(v);
}

void print_buffer(FILE* out, const Print& p, const std::vector<uint8_t>& bytes) {
  std::fprintf(out, "buffer %u (%zu bytes) as %s:\n", p.index, bytes.size(), p.as.c_str());
  const uint64_t n = std::min<uint64_t>(p.count, p.as == "hex" ? bytes.size() : bytes.size() / 4);
  for (uint64_t i = 0; i < n; ++i) {
    if (p.as == "hex") {
      std::fprintf(out, "%02x%s", bytes[i], (i + 1) % 16 == 0 || i + 1 == n ? "\n" : " ");
      continue;
    }
    uint32_t w;
    std::memcpy(&w, &bytes[i * 4], 4);
    if (p.as == "f32") {
      float f;
      std::memcpy(&f, &w, 4);
      std::fprintf(out, "  [%llu] %.9g\n", static_cast<unsigned long long>(i), static_cast<double>(f));
    } else if (p.as == "i32") {
      std::fprintf(out, "  [%llu] %d\n", static_cast<unsigned long long>(i), static_cast<int32_t>(w));
    } else {
      std::fprintf(out, "  [%llu] %u (0x%08x)\n", static_cast<unsigned long long>(i), w, w);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  porta::cli::Command command(
      "porta-run",
      "Runs one kernel (GLSL or SPIR-V) on one backend, for debugging a kernel on one "
      "vendor's device.",
      porta_version());
  command.synopsis(
      "KERNEL.comp|KERNEL.spv [--backend SEL] [--groups X,Y,Z] --buffer SPEC...\n"
      "[--push SPEC]... [--out INDEX=FILE]... [--print INDEX[:f32|i32|u32|hex][:COUNT]]...");
  command.footer("Exit status: 0 ran, 1 the device or kernel failed, 2 bad arguments.");
  std::vector<std::string> kernel_paths, buffer_texts, push_texts, out_texts, print_texts;
  std::string selector, groups_text = "1";
  CLI::App& app = command.app();
  using porta::cli::repeatable;
  app.add_option("KERNEL", kernel_paths, "the kernel: KERNEL.comp (GLSL) or KERNEL.spv (SPIR-V)")
      ->type_name("")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--backend", selector,
                 "a device selector: cpu, vulkan, opencl:1, cuda:NAME... (default: PORTA_BACKEND,\n"
                 "else the best device)")
      ->type_name("SEL");
  app.add_option("--groups", groups_text, "work-groups to dispatch (default 1)")->type_name("X,Y,Z");
  repeatable(app.add_option("--buffer", buffer_texts,
                            "one per storage buffer, in binding order: BYTES (the NaN pattern 0x7f80dead),\n"
                            "zeros:BYTES, random:SEED:BYTES, pattern:HEX32:BYTES or file:PATH"))
      ->type_name("SPEC");
  repeatable(app.add_option("--push", push_texts,
                            "push-constant bytes, appended: hex:0011.., 0x0011.., f32:1.5,2, u32:7, i32:-1,\n"
                            "or a float list"))
      ->type_name("SPEC");
  repeatable(app.add_option("--out", out_texts,
                            "write buffer INDEX (0-based, binding order) to FILE after the dispatch\n"
                            "(- is standard output)"))
      ->type_name("INDEX=FILE");
  repeatable(app.add_option("--print", print_texts,
                            "print buffer INDEX (as f32 unless told; first 16 values unless COUNT)"))
      ->type_name("INDEX");
  if (std::optional<int> done = command.parse(argc, argv)) return *done;

  std::vector<BufferSpec> buffers;
  std::vector<uint8_t> push;
  std::map<uint32_t, std::string> outs;
  std::vector<Print> prints;
  std::string kernel_path;
  try {
    if (kernel_paths.size() > 1)
      throw UsageError("a second kernel file '" + kernel_paths[1] + "' (porta-run runs one kernel)");
    if (kernel_paths.empty()) throw UsageError("no kernel file given (KERNEL.comp or KERNEL.spv)");
    kernel_path = kernel_paths.front();
    for (const auto& v : buffer_texts) buffers.push_back(parse_buffer(v));
    for (const auto& v : push_texts) append_push(v, push);
    for (const auto& v : out_texts) {
      const size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
        throw UsageError("--out '" + v + "' must be INDEX=FILE");
      outs[parse_index(v.substr(0, eq), "--out index")] = v.substr(eq + 1);
    }
    for (const auto& v : print_texts) {
      Print p;
      const size_t c1 = v.find(':');
      p.index = parse_index(v.substr(0, c1), "--print index");
      if (c1 != std::string::npos) {
        const size_t c2 = v.find(':', c1 + 1);
        p.as = v.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
        if (p.as != "f32" && p.as != "i32" && p.as != "u32" && p.as != "hex")
          throw UsageError("--print '" + v + "': show as f32, i32, u32 or hex, not '" + p.as + "'");
        if (c2 != std::string::npos) p.count = parse_size(v.substr(c2 + 1), "--print count");
      }
      prints.push_back(p);
    }
    for (const auto& [index, file] : outs)
      if (index >= buffers.size())
        throw UsageError("--out " + std::to_string(index) + "=" + file + ": there are only " +
                         std::to_string(buffers.size()) + " --buffer options");
    for (const auto& p : prints)
      if (p.index >= buffers.size())
        throw UsageError("--print " + std::to_string(p.index) + ": there are only " +
                         std::to_string(buffers.size()) + " --buffer options");
  } catch (const std::exception& e) {
    return command.usage_error(e.what());
  }

  porta::KernelSource source;
  porta::Groups groups;
  try {
    source = load_kernel(kernel_path);
    groups = parse_groups(groups_text);
  } catch (const std::exception& e) {
    return command.usage_error(e.what());
  }
  // A buffer written to standard output keeps it to itself: the rest goes to stderr.
  FILE* text = stdout;
  for (const auto& [index, file] : outs)
    if (porta::cli::is_stdout(file)) text = stderr;
  try {
    porta::Device dev = porta::open(selector);
    const porta::DeviceInfo info = dev.info();
    std::fprintf(text, "device: %s:%u %s (%s)\n", info.backend, info.index, info.name, info.driver);
    porta::Kernel kernel = dev.kernel(source);
    const auto wg = kernel.workgroup_size();
    std::fprintf(text, "kernel: %s, %u storage buffer(s), %u push-constant bytes, work-group %u x %u x %u\n",
                 source.name.c_str(), kernel.buffer_count(), kernel.push_constant_size(), wg[0], wg[1],
                 wg[2]);
    if (kernel.buffer_count() != buffers.size())
      return command.usage_error("the kernel has " + std::to_string(kernel.buffer_count()) +
                                 " storage buffer(s) but " + std::to_string(buffers.size()) +
                                 " --buffer option(s) were given (one per binding, in binding order)");
    if (kernel.push_constant_size() != push.size())
      return command.usage_error("the kernel's push-constant block is " +
                                 std::to_string(kernel.push_constant_size()) + " bytes but --push gives " +
                                 std::to_string(push.size()));
    std::vector<porta::Buffer> bufs;
    for (const auto& spec : buffers) {
      const std::vector<uint8_t> contents = spec.contents();
      bufs.push_back(dev.buffer(contents.size()));
      bufs.back().write(std::span<const uint8_t>(contents));
    }
    porta::Stream s = dev.stream();
    porta::Event begin = s.record_event();
    s.dispatch_bytes(kernel, groups, std::span<const porta::Buffer>(bufs),
                     push.empty() ? nullptr : push.data(), static_cast<uint32_t>(push.size()));
    porta::Event end = s.record_event();
    s.sync();
    std::fprintf(text, "dispatched %u x %u x %u groups in %.3f ms\n", groups.x, groups.y, groups.z,
                 begin.elapsed_ms(end));
    for (const auto& [index, file] : outs) {
      write_file(file, bufs[index].to_vector<uint8_t>());
      std::fprintf(text, "buffer %u -> %s (%llu bytes)\n", index, file.c_str(),
                   static_cast<unsigned long long>(bufs[index].size()));
    }
    for (const auto& p : prints) print_buffer(text, p, bufs[p.index].to_vector<uint8_t>());
  } catch (const porta::Error& e) {
    std::fprintf(stderr, "porta-run: %s\n", error_text(e).c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "porta-run: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
