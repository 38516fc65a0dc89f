// Every kernel porta ships or tests: the compute shaders in kernels/ and the
// test folders (tests/support/kernels among them), and every GLSL string (a
// raw string R"(#version ...)" or a run of C string literals starting
// "#version") in the translator, API and plugin conformance (tests/cts)
// sources.
// Read from the source tree when a test runs, so that a kernel added anywhere
// there is checked by every translator target's compile test without being
// listed again.
#pragma once

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace porta::test {

struct TestKernel {
  std::string name;  // unique and usable as a test name: the path, and the string's index in its file
  std::string glsl;
  // Set for a kernel that a test feeds to the front end to see it refused:
  // why it must not compile.
  std::string invalid_because;
};

inline void PrintTo(const TestKernel& kernel, std::ostream* out) { *out << kernel.name; }

namespace test_kernels_detail {

namespace fs = std::filesystem;

// Inputs that exist to be refused by the GLSL front end. A test compiling the
// others expects them to compile; these it expects to fail.
inline const std::map<std::string, std::string>& invalid_inputs() {
  static const std::map<std::string, std::string> inputs = {
      {"tests_translator_kernels_syntax_error", "porta-translate's test of a GLSL syntax error"},
      {"tests_conformance_kernels_broken", "porta-run's test of a kernel that does not compile"},
      {"tests_api_kernel_errors_test_0", "the API's test of a compile error's message"},
      {"tests_translator_front_end_test_1", "the front end's test of a GLSL syntax error"},
      {"tests_translator_front_end_test_2", "the front end's test of #version numbers without compute shaders"},
      {"tests_translator_front_end_test_3", "the front end's test that a non-compute stage is refused"},
  };
  return inputs;
}

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string identifier(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return text;
}

// A run of adjacent C string literals from `at` (on the opening quote), with
// the escapes GLSL sources use undone; `at` moves past the run.
inline std::string c_string_literals(const std::string& text, size_t& at) {
  std::string out;
  while (at < text.size() && text[at] == '"') {
    for (++at; at < text.size() && text[at] != '"'; ++at) {
      if (text[at] != '\\' || at + 1 == text.size()) {
        out += text[at];
        continue;
      }
      const char escaped = text[++at];
      out += escaped == 'n' ? '\n' : escaped == 't' ? '\t' : escaped;
    }
    ++at;
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  }
  return out;
}

// The GLSL strings of one test source, in the order they appear.
inline std::vector<std::string> glsl_strings(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = 0; at < text.size(); ++at) {
    if (text.compare(at, 3, "R\"(") == 0) {
      const size_t begin = at + 3, end = text.find(")\"", begin);
      if (end == std::string::npos) break;
      if (text.compare(begin, 8, "#version") == 0) out.push_back(text.substr(begin, end - begin));
      at = end + 1;
    } else if (text.compare(at, 9, "\"#version") == 0) {
      std::string glsl = c_string_literals(text, at);
      // Literals joined at run time with other text (`"..." + std::to_string(n)`)
      // are only a piece of their kernel.
      if (at == text.size() || text[at] != '+') out.push_back(std::move(glsl));
      --at;
    }
  }
  return out;
}

inline std::vector<fs::path> files_in(const fs::path& root, std::initializer_list<const char*> folders,
                                      std::initializer_list<const char*> extensions) {
  std::vector<fs::path> files;
  for (const char* folder : folders) {
    if (!fs::is_directory(root / folder)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / folder))
      if (entry.is_regular_file() && std::find(extensions.begin(), extensions.end(),
                                               entry.path().extension().string()) != extensions.end())
        files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace test_kernels_detail

// Every kernel under `source_root` (the repository), in a stable order.
inline std::vector<TestKernel> all_test_kernels(const std::filesystem::path& source_root) {
  namespace d = test_kernels_detail;
  std::vector<TestKernel> out;
  auto add = [&](const std::filesystem::path& path, std::string glsl, const std::string& suffix) {
    std::filesystem::path relative = path.lexically_relative(source_root);
    relative.replace_extension();
    const std::string name = d::identifier(relative.string() + suffix);
    const auto invalid = d::invalid_inputs().find(name);
    out.push_back({name, std::move(glsl), invalid == d::invalid_inputs().end() ? "" : invalid->second});
  };
  for (const auto& path :
       d::files_in(source_root,
                   {"kernels", "tests/support/kernels", "tests/translator/kernels", "tests/cuda/glsl",
                    "tests/conformance/kernels", "tests/subgroups/kernels"},
                   {".comp"}))
    add(path, d::read_text(path), "");
  for (const auto& path :
       d::files_in(source_root, {"tests/translator", "tests/translator_opencl", "tests/api", "tests/cts"},
                   {".cpp", ".c"})) {
    int index = 0;
    for (std::string& glsl : d::glsl_strings(d::read_text(path))) {
      std::string suffix = "_";
      suffix += std::to_string(index++);
      add(path, std::move(glsl), suffix);
    }
  }
  return out;
}

}  // namespace porta::test
