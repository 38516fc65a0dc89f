// porta-translate: GLSL compute source or SPIR-V → translated source or the
// reflected kernel signature.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "porta_cli.hpp"
#include "porta_translator/translator.hpp"

namespace {

namespace pt = porta::translator;

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

}  // namespace

int main(int argc, char** argv) {
  porta::cli::Command command(
      "porta-translate",
      "Translates a GLSL compute kernel or SPIR-V module to the source a backend compiles,\n"
      "or prints its reflected signature. FILE.spv is SPIR-V; anything else is GLSL compute\n"
      "source (#version 450).",
      PORTA_TOOL_VERSION);
  std::string target_names;
  for (const pt::TargetInfo& target : pt::targets())
    target_names.append(target_names.empty() ? "" : "|").append(target.name);
  command.synopsis("--target " + target_names +
                   " [--spec ID=VALUE]... [--subgroup-size N] [--bounds-checks] [--bounds-report] "
                   "[--cancel-polls] [--signature] [--vulkan-report]\n"
                   "[--no-optimize] [--readable] [--tensor-cores [--tf32] [--warpgroups]] "
                   "[-o OUT] FILE.comp|FILE.spv");
  std::string target_name, output;
  std::vector<std::string> spec_texts;
  bool signature = false, no_optimize = false, readable = false, tensor_cores = false, tf32 = false,
       warpgroups = false;
  std::vector<std::string> inputs;
  CLI::App& app = command.app();
  app.add_option("--target", target_name, "the language to translate to: " + target_names)->type_name("NAME");
  porta::cli::repeatable(
      app.add_option("--spec", spec_texts,
                     "fixes spec constant ID: an integer, a float (1.5, 2e-3) or true/false"))
      ->type_name("ID=VALUE");
  uint32_t subgroup_size = 0;
  app.add_option("--subgroup-size", subgroup_size,
                 "the device's subgroup size (1: subgroups of one work-item, as the OpenCL backend runs "
                 "them on devices without cl_khr_subgroup_*)")
      ->type_name("N");
  bool bounds_checks = false, cancel_polls = false, bounds_report = false;
  app.add_flag("--bounds-checks", bounds_checks,
               "guard every buffer access: out of bounds, reads give 0 and writes are dropped (the CPU "
               "backend's default; PORTA_ROBUST=1 for OpenCL and CUDA)");
  app.add_flag("--bounds-report", bounds_report,
               "--bounds-checks that also record the first access out of bounds in a buffer parameter "
               "added after the kernel's own (PORTA_ROBUST=report)");
  app.add_flag("--cancel-polls", cancel_polls,
               "target cpp: each loop asks whether the dispatch was cancelled (the CPU backend's watchdog)");
  app.add_flag("--signature", signature, "print the reflected kernel interface instead of source");
  bool vulkan_report = false;
  app.add_flag("--vulkan-report", vulkan_report,
               "write, instead of source, the SPIR-V module a Vulkan device runs with PORTA_ROBUST=report: "
               "every buffer access checked, the first one out of bounds recorded (binary; no --target)");
  app.add_flag("--no-optimize", no_optimize, "translate the SPIR-V without running spirv-opt first");
  app.add_flag("--readable", readable,
               "a translation to read: no spirv-opt, the GLSL names kept where the SPIR-V has them");
  app.add_flag("--tensor-cores", tensor_cores,
               "target cuda: cooperative matrices on tensor cores (mma.sync) where they map, as the CUDA "
               "backend runs them on sm_80 and newer; says why on standard error where they do not");
  app.add_flag("--warpgroups", warpgroups,
               "with --tensor-cores: Workgroup-scope matrices on sm_90's warpgroup MMA (wgmma), as the CUDA "
               "backend translates them on sm_90 (NVRTC's sm_90a)");
  app.add_flag("--tf32", tf32,
               "with --tensor-cores: float32 matrices on tensor cores at TF32 precision, as the CUDA backend "
               "runs a kernel created with PORTA_KERNEL_FLAG_ALLOW_TF32");
  app.add_option("-o", output, "write to OUT instead of standard output (- is standard output)")
      ->type_name("OUT");
  app.add_option("FILE", inputs, "the kernel: FILE.comp (GLSL) or FILE.spv (SPIR-V)")
      ->type_name("")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  if (std::optional<int> done = command.parse(argc, argv)) return *done;

  pt::TranslateOptions options;
  options.subgroup_size = subgroup_size;
  options.bounds_checks = bounds_checks;
  options.bounds_report = bounds_report;
  options.cancel_polls = cancel_polls;
  const bool optimize = !no_optimize;
  std::vector<SpecArgument> spec_arguments;
  for (const std::string& text : spec_texts) {
    SpecArgument spec;
    if (!split_spec(text, spec)) return command.usage_error("bad --spec '" + text + "'");
    spec_arguments.push_back(spec);
  }
  if (!target_name.empty()) {
    const pt::TargetInfo* found = pt::find_target(target_name);
    if (!found) return command.usage_error("unknown target '" + target_name + "'");
    options.target = found->target;
  }
  if (inputs.empty()) return command.usage_error("no input file");
  if (inputs.size() > 1) return command.usage_error("more than one input file");
  if (target_name.empty() && !signature && !vulkan_report) return command.usage_error("--target is required");
  const std::string& input = inputs.front();

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
    // The spec constants' types, from the module as given (reflection reads a
    // cooperative-matrix one through the lowering of its interface); the
    // values are known before prepare(), which the lowerings need.
    const bool cooperative_matrix = pt::uses_cooperative_matrix(spirv);
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
      try {
        value.bits = pt::parse_spec_value(*constant, argument.value);
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "porta-translate: --spec %u=%s: spec constant %s (%s): %s\n", argument.id,
                     argument.value.c_str(), constant->name.c_str(), pt::spec_type_name(*constant).c_str(),
                     e.what());
        return 1;
      }
      options.specs.push_back(value);
    }
    pt::PrepareOptions prepare_options;
    prepare_options.readable = readable;
    prepare_options.target = options.target;
    // The translation fixes the spec constants: Workgroup-scope matrices
    // spread over a group sized by them too.
    prepare_options.specs = options.specs;
    prepare_options.fix_group_size = true;
    if (tensor_cores && options.target == pt::Target::Cuda && cooperative_matrix) {
      const std::string mismatch = pt::tensor_core_mismatch(spirv, options.specs, tf32, warpgroups);
      prepare_options.tensor_cores = mismatch.empty();
      prepare_options.tf32 = tf32;
      prepare_options.warpgroups = warpgroups;
      if (!mismatch.empty())
        std::fprintf(
            stderr,
            "porta-translate: cooperative matrices lowered per invocation: tensor cores cannot run %s\n",
            mismatch.c_str());
    }
    if (optimize)
      spirv = pt::prepare(spirv, prepare_options);
    else
      pt::validate(spirv);
    std::string text;
    if (signature) {
      text = pt::describe(pt::reflect(spirv, options.specs));
    } else if (vulkan_report) {
      const std::vector<uint32_t> words = pt::instrument_bounds_report(spirv, options.specs).spirv;
      text.assign(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t));
    } else {
      text = pt::translate(spirv, options).source;
    }
    porta::cli::write_output(output.empty() ? "-" : output, text);
  } catch (const pt::Error& e) {
    std::fprintf(stderr, "porta-translate: %s: %s\n", input.c_str(), e.what());
    return 1;
  } catch (const std::exception& e) {
    return command.failure(e.what());
  }
  return 0;
}
