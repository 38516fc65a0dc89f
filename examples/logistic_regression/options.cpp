#include "options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "porta/quantize.hpp"

namespace logreg_tool {
namespace {

// Reads a whole number for `flag`; throws UsageError.
uint64_t parse_count(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end || errno || text[0] == '-')
    throw porta::cli::UsageError(flag + " wants a whole number, not '" + text + "'");
  return v;
}

}  // namespace

const char kDescription[] =
    "Trains logistic regression on the device with porta::ops::logreg_step and reports the loss,\n"
    "the training accuracy and the time per iteration. Without a data option: the classic\n"
    "example, 5 samples of 2 features. With --dtype f16, bf16 or int8 the features are kept in\n"
    "that type on the device (int8: symmetric, a scale per feature), the weights and sums in\n"
    "float32, and a float32 run on the same data is reported beside it.";

void declare(porta::cli::Command& command, Options& o, RawOptions& raw) {
  command.synopsis(
      "[--samples N --features D] [--csv FILE] [--iterations K] [--lr R] [--seed S]\n"
      "[--report-every N] [--backend NAME|all] [--dtype f32|f16|bf16|int8]");
  command.footer(
      "Exit status: 0 trained, 1 the data were refused, training failed, the backends disagree or\n"
      "the accuracy with --dtype is more than 0.5 points from float32's, 2 bad arguments.");
  CLI::App& app = command.app();
  app.add_option("--samples", raw.samples, "generated separable data: N samples (with --features)")
      ->type_name("N");
  app.add_option("--features", raw.features, "features of the generated data (default 8)")->type_name("D");
  app.add_option("--seed", raw.seed, "seed of the generated data (default 1)")->type_name("S");
  app.add_option("--csv", o.csv, "rows of features, the label (in [0, 1]) last; commas or blanks; # comments")
      ->type_name("FILE");
  app.add_option("--iterations", raw.iterations, "gradient steps (default 100 for generated data, else 1000)")
      ->type_name("K");
  app.add_option("--lr", raw.lr, "learning rate, finite and positive (default 0.5)")->type_name("R");
  app.add_option("--report-every", raw.report_every,
                 "read the loss back every N steps (default: about ten reports)")
      ->type_name("N");
  app.add_option("--dtype", raw.dtype,
                 "type of the features on the device: f32 (default), f16, bf16 or int8 (with a\n"
                 "float32 scale per feature); weights, gradient and sums stay float32")
      ->type_name("f32|f16|bf16|int8");
  app.add_option("--backend", o.backend,
                 "a device selector (default: PORTA_BACKEND, else the best device);\n"
                 "all: every available backend, compared with the reference (CPU) backend")
      ->type_name("NAME|all");
}

void finish(Options& o, const RawOptions& raw) {
  if (!raw.samples.empty()) {
    o.samples = parse_count("--samples", raw.samples);
    o.generated = true;
  }
  if (!raw.features.empty()) {
    o.features = parse_count("--features", raw.features);
    o.generated = true;
  }
  if (!raw.iterations.empty()) o.iterations = parse_count("--iterations", raw.iterations);
  if (!raw.seed.empty()) o.seed = parse_count("--seed", raw.seed);
  if (!raw.report_every.empty()) o.report_every = parse_count("--report-every", raw.report_every);
  if (!raw.dtype.empty() && !porta::dtype_from_name(raw.dtype, &o.dtype))
    throw porta::cli::UsageError("--dtype wants f32, f16, bf16 or int8, not '" + raw.dtype + "'");
  if (!raw.lr.empty()) {
    char* end = nullptr;
    o.lr = std::strtod(raw.lr.c_str(), &end);
    if (*end) throw porta::cli::UsageError("--lr wants a number, not '" + raw.lr + "'");
  }
  if (!std::isfinite(o.lr))
    throw std::runtime_error("the learning rate --lr " + std::to_string(o.lr) + " is not finite");
  if (o.lr <= 0)
    throw std::runtime_error("the learning rate --lr must be positive, not " + std::to_string(o.lr));
}

}  // namespace logreg_tool
