// translate(): picks the target compiler and turns its failures into Error.
#include <memory>
#include <spirv_cross_error_handling.hpp>

#include "cpp_compiler.hpp"
#include "cuda_compiler.hpp"
#include "opencl_compiler.hpp"
#include "porta_translator/translator.hpp"
#include "spirv_words.hpp"

namespace porta::translator {

Translation translate(const std::vector<uint32_t>& spirv, const TranslateOptions& options) {
  if (spirv.empty() || spirv[0] != kSpirvMagic) (void)spirv_from_bytes(spirv.data(), spirv.size() * 4);
  Translation translation;
  try {
    std::unique_ptr<detail::TargetCompiler> compiler;
    std::vector<uint32_t> module = options.cancel_polls ? insert_cancel_polls(spirv) : spirv;
    // A report is made by the bounds checks: it needs them.
    TranslateOptions checked = options;
    if (options.bounds_report) {
      module = add_bounds_record(module, translation.bounds_record_set, translation.bounds_record_binding);
      checked.bounds_checks = true;
    }
    if (options.target == Target::Cuda)
      compiler = std::make_unique<detail::CudaCompiler>(module, checked);
    else if (options.target == Target::OpenCL)
      compiler = std::make_unique<detail::OpenclCompiler>(module, checked);
    else
      compiler = std::make_unique<detail::CppCompiler>(module, checked);
    // The emitter indents blank lines; drop trailing blanks so the text diffs cleanly.
    std::string text = compiler->compile(), clean;
    clean.reserve(text.size());
    size_t line_start = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
      if (i == text.size() || text[i] == '\n') {
        size_t end = i;
        while (end > line_start && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
        clean.append(text, line_start, end - line_start);
        if (i < text.size()) clean += '\n';
        line_start = i + 1;
      }
    }
    translation.source = std::move(clean);
    translation.bounds_sites = compiler->bounds_sites();
    translation.entry_point = options.target == Target::Cuda     ? "porta_cuda_kernel"
                              : options.target == Target::OpenCL ? detail::OpenclCompiler::kEntryPoint
                                                                 : "porta_cpu_kernel";
  } catch (const spirv_cross::CompilerError& e) {
    throw Error(Error::Kind::UnsupportedFeature,
                std::string("translation to ") + target_name(options.target) + " failed: " + e.what());
  }
  return translation;
}

}  // namespace porta::translator
