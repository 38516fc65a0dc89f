// porta-run: one kernel (GLSL or SPIR-V) on one backend, with buffers from
// files or generated, push constants and groups from the command line; chosen
// buffers are written to files or printed. For debugging a kernel on one
// vendor's device.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "kernel_io.hpp"
#include "porta/porta.hpp"

using namespace porta::conformance;

namespace {

const char kUsage[] =
    "usage: porta-run KERNEL.comp|KERNEL.spv [--backend SEL] [--groups X,Y,Z] --buffer SPEC...\n"
    "                 [--push SPEC]... [--out INDEX=FILE]... [--print INDEX[:f32|i32|u32|hex][:COUNT]]...\n"
    "  --backend SEL     a device selector: cpu, vulkan, opencl:1, cuda:NAME... (default: PORTA_BACKEND,\n"
    "                    else the best device)\n"
    "  --groups X,Y,Z    work-groups to dispatch (default 1)\n"
    "  --buffer SPEC     one per storage buffer, in binding order: BYTES (the NaN pattern 0x7f80dead),\n"
    "                    zeros:BYTES, random:SEED:BYTES, pattern:HEX32:BYTES or file:PATH\n"
    "  --push SPEC       push-constant bytes, appended: hex:0011.., 0x0011.., f32:1.5,2, u32:7, i32:-1,\n"
    "                    or a float list\n"
    "  --out INDEX=FILE  write buffer INDEX (0-based, binding order) to FILE after the dispatch\n"
    "  --print INDEX     print buffer INDEX (as f32 unless told; first 16 values unless COUNT)\n"
    "Exit status: 0 ran, 1 the device or kernel failed, 2 bad arguments.\n";

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

void print_buffer(const Print& p, const std::vector<uint8_t>& bytes) {
  std::printf("buffer %u (%zu bytes) as %s:\n", p.index, bytes.size(), p.as.c_str());
  const uint64_t n = std::min<uint64_t>(p.count, p.as == "hex" ? bytes.size() : bytes.size() / 4);
  for (uint64_t i = 0; i < n; ++i) {
    if (p.as == "hex") {
      std::printf("%02x%s", bytes[i], (i + 1) % 16 == 0 || i + 1 == n ? "\n" : " ");
      continue;
    }
    uint32_t w;
    std::memcpy(&w, &bytes[i * 4], 4);
    if (p.as == "f32") {
      float f;
      std::memcpy(&f, &w, 4);
      std::printf("  [%llu] %.9g\n", static_cast<unsigned long long>(i), static_cast<double>(f));
    } else if (p.as == "i32") {
      std::printf("  [%llu] %d\n", static_cast<unsigned long long>(i), static_cast<int32_t>(w));
    } else {
      std::printf("  [%llu] %u (0x%08x)\n", static_cast<unsigned long long>(i), w, w);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string kernel_path, selector, groups_text = "1";
  std::vector<BufferSpec> buffers;
  std::vector<uint8_t> push;
  std::map<uint32_t, std::string> outs;
  std::vector<Print> prints;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw UsageError(a + " needs a value");
        return argv[++i];
      };
      if (a == "-h" || a == "--help") {
        std::fputs(kUsage, stdout);
        return 0;
      } else if (a == "--backend") {
        selector = value();
      } else if (a == "--groups") {
        groups_text = value();
      } else if (a == "--buffer") {
        buffers.push_back(parse_buffer(value()));
      } else if (a == "--push") {
        append_push(value(), push);
      } else if (a == "--out") {
        const std::string v = value();
        const size_t eq = v.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
          throw UsageError("--out '" + v + "' must be INDEX=FILE");
        outs[parse_index(v.substr(0, eq), "--out index")] = v.substr(eq + 1);
      } else if (a == "--print") {
        const std::string v = value();
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
      } else if (!a.empty() && a[0] == '-') {
        throw UsageError("unknown option '" + a + "' (--help lists the options)");
      } else if (kernel_path.empty()) {
        kernel_path = a;
      } else {
        throw UsageError("a second kernel file '" + a + "' (porta-run runs one kernel)");
      }
    }
    if (kernel_path.empty()) throw UsageError("no kernel file given (KERNEL.comp or KERNEL.spv)");
    for (const auto& [index, file] : outs)
      if (index >= buffers.size())
        throw UsageError("--out " + std::to_string(index) + "=" + file + ": there are only " +
                         std::to_string(buffers.size()) + " --buffer options");
    for (const auto& p : prints)
      if (p.index >= buffers.size())
        throw UsageError("--print " + std::to_string(p.index) + ": there are only " +
                         std::to_string(buffers.size()) + " --buffer options");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "porta-run: error: %s\n", e.what());
    return 2;
  }

  porta::KernelSource source;
  porta::Groups groups;
  try {
    source = load_kernel(kernel_path);
    groups = parse_groups(groups_text);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "porta-run: error: %s\n", e.what());
    return 2;
  }
  try {
    porta::Device dev = porta::open(selector);
    const porta::DeviceInfo info = dev.info();
    std::printf("device: %s:%u %s (%s)\n", info.backend, info.index, info.name, info.driver);
    porta::Kernel kernel = dev.kernel(source);
    const auto wg = kernel.workgroup_size();
    std::printf("kernel: %s, %u storage buffer(s), %u push-constant bytes, work-group %u x %u x %u\n",
                source.name.c_str(), kernel.buffer_count(), kernel.push_constant_size(), wg[0], wg[1], wg[2]);
    if (kernel.buffer_count() != buffers.size()) {
      std::fprintf(stderr,
                   "porta-run: error: the kernel has %u storage buffer(s) but %zu --buffer option(s) were "
                   "given (one per binding, in binding order)\n",
                   kernel.buffer_count(), buffers.size());
      return 2;
    }
    if (kernel.push_constant_size() != push.size()) {
      std::fprintf(stderr,
                   "porta-run: error: the kernel's push-constant block is %u bytes but --push gives %zu\n",
                   kernel.push_constant_size(), push.size());
      return 2;
    }
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
    std::printf("dispatched %u x %u x %u groups in %.3f ms\n", groups.x, groups.y, groups.z,
                begin.elapsed_ms(end));
    for (const auto& [index, file] : outs) {
      write_file(file, bufs[index].to_vector<uint8_t>());
      std::printf("buffer %u -> %s (%llu bytes)\n", index, file.c_str(),
                  static_cast<unsigned long long>(bufs[index].size()));
    }
    for (const auto& p : prints) print_buffer(p, bufs[p.index].to_vector<uint8_t>());
  } catch (const porta::Error& e) {
    std::fprintf(stderr, "porta-run: %s\n", error_text(e).c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "porta-run: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
