// What every porta command-line tool shares: a CLI11 command line with one
// --help layout and --version ("<tool> <porta version>"), one set of exit
// statuses (0 success, 1 failure, 2 bad arguments), and "-" as standard
// output wherever an option names a file to write.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace porta::cli {

constexpr int kSuccess = 0;
constexpr int kFailure = 1;
constexpr int kUsage = 2;

// Bad arguments noticed after the command line was parsed (a value that does
// not read, options that do not fit together): exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Command {
 public:
  // `tool` is the program's name, `version` porta's version as the tool sees
  // it (porta_version() where it links libporta).
  Command(std::string tool, std::string description, std::string version);
  Command(const Command&) = delete;
  Command& operator=(const Command&) = delete;

  CLI::App& app() { return *app_; }
  const std::string& tool() const { return tool_; }

  // What --help shows after "usage: TOOL" (more lines are indented below the
  // first); unset, CLI11 writes it from the options.
  void synopsis(std::string text);
  // What --help shows after the options; the exit statuses by default.
  void footer(std::string text);

  // Parses argv. Returns the exit status when the program is done: 0 after
  // --help or --version (printed on stdout), 2 after bad arguments (reported
  // on stderr); nothing when it should go on.
  std::optional<int> parse(int argc, char** argv);

  // Reports bad arguments found after parse() on stderr; returns 2.
  int usage_error(const std::string& message) const;
  // Reports a failure on stderr as "TOOL: message"; returns 1.
  int failure(const std::string& message) const;

  // parse(), then `body`: its return value is the exit status; a UsageError
  // it throws is reported as bad arguments (2), any other exception as a
  // failure (1).
  int run(int argc, char** argv, const std::function<int()>& body);

 private:
  std::string tool_;
  std::unique_ptr<CLI::App> app_;
  std::shared_ptr<class HelpFormatter> formatter_;
};

// Makes `option` (of a std::vector) repeatable: one value each time it is
// given, all of them kept in order ("--buffer 16 --buffer 32").
CLI::Option* repeatable(CLI::Option* option);

// The default footer of --help.
extern const char kExitStatusText[];

// True for "-", the name of standard output.
bool is_stdout(const std::string& path);
// Writes `text` to `path` ("-": standard output); throws std::runtime_error
// that names the file when it cannot.
void write_output(const std::string& path, const std::string& text);

// Each item split at commas, empty pieces dropped: "--op a,b --op c" gives a, b, c.
std::vector<std::string> split_list(const std::vector<std::string>& items, char separator = ',');
std::vector<std::string> split_list(const std::string& text, char separator = ',');

}  // namespace porta::cli
