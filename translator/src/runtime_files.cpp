// Sections of the embedded runtime files, split once on first use.
#include "runtime_files.hpp"

#include <map>
#include <mutex>

#include "porta_translator/translator.hpp"

namespace porta::translator::detail {
namespace {

constexpr std::string_view kSectionMarker = "//@section ";

using Sections = std::map<std::string, std::vector<std::string>, std::less<>>;

Sections split_sections(std::string_view text) {
  Sections sections;
  std::vector<std::string>* current = nullptr;  // nothing before the first marker is a section
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (line.substr(0, kSectionMarker.size()) == kSectionMarker)
      current = &sections[std::string(line.substr(kSectionMarker.size()))];
    else if (current)
      current->emplace_back(line);
  }
  for (auto& [name, lines] : sections)
    while (!lines.empty() && lines.back().find_first_not_of(" \t\r") == std::string::npos) lines.pop_back();
  return sections;
}

const Sections* sections_of(std::string_view file) {
  static std::once_flag once;
  static std::map<std::string, Sections, std::less<>> files;
  std::call_once(once, [] {
    for (size_t i = 0; i < kRuntimeFileCount; ++i)
      if (kRuntimeFiles[i].name)
        files[kRuntimeFiles[i].name] = split_sections({kRuntimeFiles[i].data, kRuntimeFiles[i].size});
  });
  auto found = files.find(file);
  return found == files.end() ? nullptr : &found->second;
}

}  // namespace

std::vector<std::string> runtime_section(std::string_view file, std::string_view section,
                                         const Substitutions& substitutions) {
  const Sections* sections = sections_of(file);
  const auto found = sections ? sections->find(section) : Sections::const_iterator();
  if (!sections || found == sections->end())
    throw Error(Error::Kind::Internal, "the translator's runtime has no section '" + std::string(section) +
                                           "' in " + std::string(file));
  std::vector<std::string> lines = found->second;
  for (std::string& line : lines) {
    for (const auto& [key, value] : substitutions) {
      const std::string placeholder = "{" + key + "}";
      for (size_t at = line.find(placeholder); at != std::string::npos;
           at = line.find(placeholder, at + value.size()))
        line.replace(at, placeholder.size(), value);
    }
    for (size_t open = line.find('{'); open != std::string::npos; open = line.find('{', open + 1))
      if (open + 1 < line.size() && line[open + 1] >= 'A' && line[open + 1] <= 'Z')
        throw Error(Error::Kind::Internal, "section '" + std::string(section) + "' of " + std::string(file) +
                                               " has a placeholder left: " + line);
  }
  return lines;
}

}  // namespace porta::translator::detail
