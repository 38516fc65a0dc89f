// porta-translate: GLSL compute source or SPIR-V → translated source or the
// reflected kernel signature.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "porta_translator/translator.hpp"

namespace {

namespace pt = porta::translator;

int usage(const char* message) {
  if (message) std::fprintf(stderr, "porta-translate: %s\n", message);
  std::fprintf(stderr,
               "usage: porta-translate --target cpp|opencl|cuda [--spec ID=VALUE]... [--signature] [--no-optimize]\n"
               "                       [-o OUT] FILE.comp|FILE.spv\n"
               "  FILE.spv is SPIR-V; anything else is GLSL compute source (#version 450).\n"
               "  --spec ID=VALUE  fixes spec constant ID: an integer, a float (1.5, 2e-3) or true/false.\n"
               "  --signature      prints the reflected kernel interface instead of source.\n");
  return 2;
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  out = text.str();
  return true;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "3=64", "1=0.5", "2=-1", "4=true" → spec value bits.
bool parse_spec(const std::string& text, pt::SpecValue& spec) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long id = std::strtoul(text.c_str(), &end, 10);
  if (errno || end != text.c_str() + eq) return false;
  spec.id = static_cast<uint32_t>(id);
  const std::string value = text.substr(eq + 1);
  if (value == "true" || value == "false") {
    spec.bits = value == "true";
    return true;
  }
  const bool looks_float = value.find_first_of(".eE") != std::string::npos && value.find("0x") == std::string::npos;
  if (looks_float) {
    const float f = std::strtof(value.c_str(), &end);
    if (*end) return false;
    std::memcpy(&spec.bits, &f, sizeof(f));
    return true;
  }
  const long long v = std::strtoll(value.c_str(), &end, 0);
  if (*end || v < INT32_MIN || v > static_cast<long long>(UINT32_MAX)) return false;
  spec.bits = static_cast<uint32_t>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  pt::TranslateOptions options;
  bool have_target = false, signature = false, optimize = true;
  std::string input, output;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--target" && i + 1 < argc) {
      const std::string name = argv[++i];
      if (name == "cpp")
        options.target = pt::Target::Cpp;
      else if (name == "opencl")
        options.target = pt::Target::OpenCL;
      else if (name == "cuda")
        options.target = pt::Target::Cuda;
      else
        return usage(("unknown target '" + name + "'").c_str());
      have_target = true;
    } else if (arg == "--spec" && i + 1 < argc) {
      pt::SpecValue spec;
      if (!parse_spec(argv[++i], spec)) return usage(("bad --spec '" + std::string(argv[i]) + "'").c_str());
      options.specs.push_back(spec);
    } else if (arg == "--signature") {
      signature = true;
    } else if (arg == "--no-optimize") {
      optimize = false;
    } else if (arg == "-o" && i + 1 < argc) {
      output = argv[++i];
    } else if (arg == "-h" || arg == "--help") {
      usage(nullptr);
      return 0;
    } else if (!arg.empty() && arg[0] == '-') {
      return usage(("unknown option '" + arg + "'").c_str());
    } else if (input.empty()) {
      input = arg;
    } else {
      return usage("more than one input file");
    }
  }
  if (input.empty()) return usage("no input file");
  if (!have_target && !signature) return usage("--target is required");

  std::string bytes;
  if (!read_file(input, bytes)) {
    std::fprintf(stderr, "porta-translate: cannot read %s: %s\n", input.c_str(), std::strerror(errno));
    return 1;
  }
  try {
    const size_t slash = input.find_last_of('/');
    const std::string name = slash == std::string::npos ? input : input.substr(slash + 1);
    std::vector<uint32_t> spirv = ends_with(input, ".spv") ? pt::spirv_from_bytes(bytes.data(), bytes.size())
                                                           : pt::compile_glsl(bytes, name);
    pt::validate(spirv);
    if (optimize) spirv = pt::optimize(spirv);
    std::string text;
    if (signature)
      text = pt::describe(pt::reflect(spirv, options.specs));
    else
      text = pt::translate(spirv, options).source;
    if (output.empty()) {
      std::fwrite(text.data(), 1, text.size(), stdout);
    } else {
      std::ofstream out(output, std::ios::binary);
      out << text;
      if (!out) {
        std::fprintf(stderr, "porta-translate: cannot write %s\n", output.c_str());
        return 1;
      }
    }
  } catch (const pt::Error& e) {
    std::fprintf(stderr, "porta-translate: %s: %s\n", input.c_str(), e.what());
    return 1;
  }
  return 0;
}
