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
  std::string names;
  for (const pt::TargetInfo& target : pt::targets())
    names.append(names.empty() ? "" : "|").append(target.name);
  std::fprintf(stderr,
               "usage: porta-translate --target %s [--spec ID=VALUE]... [--signature]\n"
               "                       [--readable] [--no-optimize] [-o OUT] FILE.comp|FILE.spv\n"
               "  FILE.spv is SPIR-V; anything else is GLSL compute source (#version 450).\n"
               "  --spec ID=VALUE  fixes spec constant ID: an integer, a float (1.5, 2e-3) or true/false.\n"
               "  --signature      prints the reflected kernel interface instead of source.\n"
               "  --readable       translates without spirv-opt, keeping GLSL's names, functions and loops\n"
               "                   (only the inlining a target needs); what backends run is optimised.\n"
               "  --no-optimize    translates the validated module as it is.\n"
               "targets:\n",
               names.c_str());
  for (const pt::TargetInfo& target : pt::targets())
    std::fprintf(stderr, "  %-16s %s\n", target.name, target.language);
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

// "--spec ID=VALUE" as given; the value is read once the spec constant's type
// is known from the kernel.
struct SpecArgument {
  uint32_t id = 0;
  std::string value;
};

bool split_spec(const std::string& text, SpecArgument& spec) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long id = std::strtoul(text.c_str(), &end, 10);
  if (errno || end != text.c_str() + eq || id > UINT32_MAX) return false;
  spec.id = static_cast<uint32_t>(id);
  spec.value = text.substr(eq + 1);
  return true;
}

// The bits of `text` read as the spec constant's type; false if it does not parse.
bool spec_bits(pt::ScalarType type, const std::string& text, uint32_t& bits) {
  char* end = nullptr;
  errno = 0;
  switch (type) {
    case pt::ScalarType::Bool:
      if (text != "true" && text != "false" && text != "1" && text != "0") return false;
      bits = text == "true" || text == "1";
      return true;
    case pt::ScalarType::Float: {
      const float f = std::strtof(text.c_str(), &end);
      if (*end || errno) return false;
      std::memcpy(&bits, &f, sizeof(f));
      return true;
    }
    case pt::ScalarType::Int: {
      const long long v = std::strtoll(text.c_str(), &end, 0);
      if (*end || errno || v < INT32_MIN || v > INT32_MAX) return false;
      bits = static_cast<uint32_t>(static_cast<int32_t>(v));
      return true;
    }
    case pt::ScalarType::UInt: {
      if (!text.empty() && text[0] == '-') return false;
      const unsigned long long v = std::strtoull(text.c_str(), &end, 0);
      if (*end || errno || v > UINT32_MAX) return false;
      bits = static_cast<uint32_t>(v);
      return true;
    }
  }
  return false;
}

const char* scalar_name(pt::ScalarType type) {
  switch (type) {
    case pt::ScalarType::Bool:
      return "bool";
    case pt::ScalarType::Int:
      return "int";
    case pt::ScalarType::UInt:
      return "uint";
    case pt::ScalarType::Float:
      return "float";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  pt::TranslateOptions options;
  bool have_target = false, signature = false, optimize = true, readable = false;
  std::vector<SpecArgument> spec_arguments;
  std::string input, output;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--target" && i + 1 < argc) {
      const pt::TargetInfo* target = pt::find_target(argv[++i]);
      if (!target) return usage(("unknown target '" + std::string(argv[i]) + "'").c_str());
      options.target = target->target;
      have_target = true;
    } else if (arg == "--spec" && i + 1 < argc) {
      SpecArgument spec;
      if (!split_spec(argv[++i], spec)) return usage(("bad --spec '" + std::string(argv[i]) + "'").c_str());
      spec_arguments.push_back(spec);
    } else if (arg == "--signature") {
      signature = true;
    } else if (arg == "--readable") {
      readable = true;
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
    if (optimize)
      spirv = pt::prepare(spirv, {readable, options.target});
    else
      pt::validate(spirv);
    const pt::KernelSignature declared = pt::reflect(spirv);
    for (const SpecArgument& argument : spec_arguments) {
      const pt::SpecConstant* constant = nullptr;
      for (const pt::SpecConstant& c : declared.spec_constants)
        if (c.id == argument.id) constant = &c;
      if (!constant) {
        std::fprintf(stderr, "porta-translate: %s has no spec constant with constant_id %u\n", input.c_str(),
                     argument.id);
        return 1;
      }
      pt::SpecValue value;
      value.id = argument.id;
      if (!spec_bits(constant->type, argument.value, value.bits)) {
        std::fprintf(stderr, "porta-translate: --spec %u=%s: not a %s value (spec constant %s)\n",
                     argument.id, argument.value.c_str(), scalar_name(constant->type),
                     constant->name.c_str());
        return 1;
      }
      options.specs.push_back(value);
    }
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
