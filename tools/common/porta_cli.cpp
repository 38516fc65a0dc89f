#include "porta_cli.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

namespace porta::cli {

const char kExitStatusText[] = "Exit status: 0 success, 1 failure, 2 bad arguments.";

// One layout for every tool: the usage line first, then what the tool does,
// its options, and the exit statuses.
namespace {

// CLI11's words for an option given without its value, in porta's.
std::string message_of(const CLI::ParseError& e) {
  static const std::regex missing("^(-[^ :]+): [0-9]+ required .* missing$");
  std::smatch m;
  const std::string text = e.what();
  if (std::regex_match(text, m, missing)) return m[1].str() + " needs a value";
  return text;
}

}  // namespace

class HelpFormatter : public CLI::Formatter {
 public:
  std::string synopsis;

  std::string make_usage(const CLI::App* app, std::string name) const override {
    if (synopsis.empty()) return CLI::Formatter::make_usage(app, name);
    // Lines after the first line up under the first argument.
    const std::string indent(std::string("usage: ").size() + name.size() + 1, ' ');
    std::string text = "usage: " + name + " ";
    for (char c : synopsis) {
      text += c;
      if (c == '\n') text += indent;
    }
    return text + "\n";
  }

  // A repeatable option shows its value once ("--buffer SPEC"), not CLI11's "SPEC ...".
  std::string make_option_opts(const CLI::Option* opt) const override {
    std::string text = CLI::Formatter::make_option_opts(opt);
    const std::string repeated = " ...";
    if (const size_t at = text.find(repeated); at != std::string::npos) text.erase(at, repeated.size());
    return text;
  }

  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    std::string out = make_usage(app, name);
    const std::string description = make_description(app);
    if (!description.empty()) out += "\n" + description;
    std::string options = make_positionals(app) + make_groups(app, mode);
    while (!options.empty() && options.back() == '\n') options.pop_back();
    out += options + "\n";
    const std::string footer = make_footer(app);
    if (!footer.empty()) out += "\n" + footer;
    return out;
  }
};

Command::Command(std::string tool, std::string description, std::string version)
    : tool_(std::move(tool)),
      app_(std::make_unique<CLI::App>(std::move(description), tool_)),
      formatter_(std::make_shared<HelpFormatter>()) {
  formatter_->label("Usage", "usage");
  formatter_->label("Positionals", "Arguments");
  formatter_->column_width(28);
  app_->formatter(formatter_);
  app_->set_help_flag("-h,--help", "print this help and exit");
  app_->set_version_flag("--version", tool_ + " " + version, "print the version and exit");
  app_->footer(kExitStatusText);
  // Unknown arguments are reported by parse() in porta's words.
  app_->allow_extras();
  // A single-valued option given twice keeps the last value, as the tools
  // always did; list options say otherwise where they are added.
  app_->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

void Command::synopsis(std::string text) { formatter_->synopsis = std::move(text); }

void Command::footer(std::string text) { app_->footer(std::move(text)); }

std::optional<int> Command::parse(int argc, char** argv) {
  try {
    app_->parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app_->help().c_str(), stdout);
    return kSuccess;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app_->help().c_str(), stdout);
    return kSuccess;
  } catch (const CLI::CallForVersion& e) {
    std::printf("%s\n", e.what());
    return kSuccess;
  } catch (const CLI::ParseError& e) {
    return usage_error(message_of(e));
  } catch (const UsageError& e) {
    return usage_error(e.what());
  }
  const std::vector<std::string> extras = app_->remaining();
  if (!extras.empty()) {
    const std::string& first = extras.front();
    const bool option = first.size() > 1 && first[0] == '-';
    return usage_error((option ? "unknown option '" : "unexpected argument '") + first + "'");
  }
  return std::nullopt;
}

int Command::usage_error(const std::string& message) const {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: %s (--help lists the options)\n", tool_.c_str(), message.c_str());
  return kUsage;
}

int Command::failure(const std::string& message) const {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %s\n", tool_.c_str(), message.c_str());
  return kFailure;
}

int Command::run(int argc, char** argv, const std::function<int()>& body) {
  if (std::optional<int> done = parse(argc, argv)) return *done;
  try {
    return body();
  } catch (const UsageError& e) {
    return usage_error(e.what());
  } catch (const std::exception& e) {
    return failure(e.what());
  }
}

CLI::Option* repeatable(CLI::Option* option) {
  return option->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->allow_extra_args(false);
}

bool is_stdout(const std::string& path) { return path == "-"; }

void write_output(const std::string& path, const std::string& text) {
  if (is_stdout(path)) {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
      throw std::runtime_error(std::string("cannot write to standard output: ") + std::strerror(errno));
    return;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) throw std::runtime_error("writing '" + path + "' failed: " + std::strerror(errno));
}

std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, separator);)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::vector<std::string> split_list(const std::vector<std::string>& items, char separator) {
  std::vector<std::string> out;
  for (const auto& item : items)
    for (auto& piece : split_list(item, separator)) out.push_back(std::move(piece));
  return out;
}

}  // namespace porta::cli
