// porta-nvrtc-check: compiles CUDA C++ with NVRTC exactly as the CUDA backend
// does (same loader, same options), for each architecture asked for (sm_90 and
// sm_80 unless --arch is given). Fails on any error or warning — a non-empty
// NVRTC log — so translated code can be checked in CI on machines with no GPU.
//
//   porta-nvrtc-check [--arch sm_XY]... FILE.cu...
//   exit status: 0 clean, 1 errors or warnings, 2 bad usage or NVRTC missing
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../common/plugin_support.hpp"
#include "nvrtc.hpp"

namespace {

int usage() {
  std::fprintf(stderr, "usage: porta-nvrtc-check [--arch sm_XY]... FILE.cu...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> archs;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--arch" && i + 1 < argc) {
      std::string a = argv[++i];
      if (a.rfind("sm_", 0) != 0 || a.size() < 5) return usage();
      archs.push_back(std::atoi(a.c_str() + 3));
    } else if (arg == "-h" || arg == "--help") {
      return usage();
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) return usage();
  if (archs.empty()) archs = {90, 80};

  const porta::cuda::Nvrtc* nvrtc = nullptr;
  try {
    nvrtc = &porta::cuda::Nvrtc::get();
  } catch (const porta::plugin::Failure& f) {
    std::fprintf(stderr, "porta-nvrtc-check: %s\n", f.what());
    return 2;
  }

  int failures = 0;
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read\n", file.c_str());
      ++failures;
      continue;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::string name = file.substr(file.find_last_of('/') + 1);
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".cu") == 0) name.resize(name.size() - 3);
    for (int arch : archs) {
      try {
        porta::cuda::CompiledModule m = nvrtc->compile(text.str(), name, arch);
        if (!m.log.empty()) {
          std::fprintf(stderr, "%s: %s: warnings (NVRTC %s):\n%s\n", file.c_str(), m.target.c_str(),
                       nvrtc->version().c_str(), m.log.c_str());
          ++failures;
        } else {
          std::printf("%s: %s: ok (%zu bytes of %s)\n", file.c_str(), m.target.c_str(), m.image.size(),
                      m.is_ptx ? "PTX" : "cubin");
        }
      } catch (const porta::plugin::Failure& f) {
        std::fprintf(stderr, "%s: %s\n", file.c_str(), f.what());
        ++failures;
      }
    }
  }
  return failures ? 1 : 0;
}
