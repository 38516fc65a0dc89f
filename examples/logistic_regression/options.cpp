#include "options.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
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

// A whole number of bytes with an optional K, M or G (powers of 1024).
uint64_t parse_bytes(const std::string& flag, const std::string& text) {
  std::string digits = text;
  uint64_t unit = 1;
  const char suffix = digits.empty() ? 0 : static_cast<char>(std::toupper(digits.back()));
  if (suffix == 'K' || suffix == 'M' || suffix == 'G') {
    unit = suffix == 'K' ? 1ull << 10 : suffix == 'M' ? 1ull << 20 : 1ull << 30;
    digits.pop_back();
  }
  return parse_count(flag, digits) * unit;
}

double parse_number(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end) throw porta::cli::UsageError(flag + " wants a number, not '" + text + "'");
  return v;
}

}  // namespace

const char kDescription[] =
    "Trains logistic regression on the device with porta::ops::logreg_step and reports the loss,\n"
    "the training accuracy and the time per iteration. Without a data option: the classic\n"
    "example, 5 samples of 2 features. With --dtype f16, bf16 or int8 the features are kept in\n"
    "that type on the device (int8: symmetric, a scale per feature), the weights and sums in\n"
    "float32, and a float32 run on the same data is reported beside it.\n"
    "\n"
    "--data reads a CSV, NPY or LIBSVM file (by its extension, or --format):\n"
    "  csv     rows of numbers; commas, semicolons, tabs or blanks; \"quoted\" fields; CRLF; '#'\n"
    "          comment lines; a header row detected (--header / --no-header force it); the\n"
    "          label column by header name or 0-based index (--label), else the last\n"
    "  npy     float32/float64 (or integer) arrays, C or Fortran order, memory-mapped: rows x\n"
    "          (features + label) with the label last (or --label), or rows x features with\n"
    "          --labels FILE (one label a row)\n"
    "  libsvm  'label index:value ...' rows, indices from 1, absent values 0; the feature count\n"
    "          is the largest index, or --features D; labels -1/+1 read as 0/1\n"
    "Labels must be 0 or 1. A malformed value is refused naming file, line and column.\n"
    "File data are standardised (each feature's mean and standard deviation, taken on the\n"
    "training rows) unless --standardize off; the model file keeps them. --test-fraction F\n"
    "holds out a share of the rows (chosen with --seed) and reports the accuracy on them.\n"
    "\n"
    "porta-logreg predict --load-model M --data F [--out FILE] writes 'probability,class' per\n"
    "row of F (standard output by default) and, when F has labels, the accuracy on stderr.\n"
    "On a terminal a progress line (iteration, loss, samples/s, ETA) is shown on stderr.";

void declare(porta::cli::Command& command, Options& o, RawOptions& raw) {
  command.synopsis(
      "[train] [--samples N --features D] [--csv FILE] [--iterations K] [--lr R] [--seed S]\n"
      "[--report-every N] [--backend NAME|all] [--dtype f32|f16|bf16|int8]\n"
      "[--devices LIST|all [--keep-going]] [--device-memory BYTES]   (mpirun -np N porta-logreg ...)\n"
      "[--row-cache on|off] [--row-cache-memory BYTES] [--row-cache-dir DIR]\n"
      "[--data FILE [--format csv|npy|libsvm] [--labels FILE] [--label COL] [--header|--no-header]]\n"
      "[--standardize on|off] [--test-fraction F] [--save-model FILE] [--load-model FILE]\n"
      "predict --load-model FILE --data FILE [--out FILE]");
  command.footer(
      "Exit status: 0 trained, 1 the data were refused, training failed, the backends disagree or\n"
      "the accuracy with --dtype is more than 0.5 points from float32's, 2 bad arguments.");
  CLI::App& app = command.app();
  // Every option but the two flags is a word, checked in finish().
  const struct {
    const char* name;
    std::string* value;
    const char* help;
    const char* type;
  } words[] = {
      {"mode", &raw.mode, "train (default) or predict", "train|predict"},
      {"--samples", &raw.samples, "generated separable data: N samples (with --features)", "N"},
      {"--features", &raw.features,
       "features of the generated data (default 8); with --data FILE in LIBSVM, the\n"
       "feature count (default: the largest index)",
       "D"},
      {"--seed", &raw.seed, "seed of the generated data and of --test-fraction's split (default 1)", "S"},
      {"--data", &o.data, "train on (or predict for) a CSV, NPY or LIBSVM file; see above", "FILE"},
      {"--format", &raw.format, "the format of --data (default: by its extension)", "csv|npy|libsvm"},
      {"--labels", &o.read.labels_path, "NPY: the labels (0/1), one a row, in a file of their own", "FILE"},
      {"--label", &o.read.label,
       "CSV/NPY: the label column, a header name or a 0-based index (default: the last)", "COL"},
      {"--csv", &raw.csv, "the same as --data FILE --format csv", "FILE"},
      {"--standardize", &raw.standardize,
       "standardise file data with the training rows' mean and standard deviation (default on)", "on|off"},
      {"--test-fraction", &raw.test_fraction,
       "hold out this share (0 <= F < 1) of the rows and report their accuracy", "F"},
      {"--save-model", &o.save_model,
       "write the model as JSON (weights, bias, standardisation), whole or not at all", "FILE"},
      {"--load-model", &o.load_model,
       "predict: the model to use; train: start from its weights and standardisation", "FILE"},
      {"--out", &o.out, "predict: where to write the predictions (default: standard output)", "FILE"},
      {"--iterations", &raw.iterations, "gradient steps (default 100 for generated data, else 1000)", "K"},
      {"--lr", &raw.lr, "learning rate, finite and positive (default 0.5)", "R"},
      {"--report-every", &raw.report_every, "read the loss back every N steps (default: about ten reports)",
       "N"},
      {"--dtype", &raw.dtype,
       "type of the features on the device: f32 (default), f16, bf16 or int8 (with a\n"
       "float32 scale per feature); weights, gradient and sums stay float32",
       "f32|f16|bf16|int8"},
      {"--backend", &o.backend,
       "a device selector (default: PORTA_BACKEND, else the best device);\n"
       "all: every available backend, compared with the reference (CPU) backend",
       "NAME|all"},
      {"--devices", &o.devices,
       "train data-parallel on several devices of any backends (porta/parallel.h): a\n"
       "comma list of selectors (cpu,vulkan,opencl or vulkan:0,opencl:1) or all; shards\n"
       "follow each device's measured throughput; each device's share is printed",
       "LIST|all"},
      {"--device-memory", &raw.device_memory,
       "bytes porta may use on each device (suffix K, M, G); data that do not fit stream\n"
       "through in chunks, uploads overlapped with compute; with --data FILE the training\n"
       "rows stay in the file and are read from it a chunk ahead",
       "BYTES"},
      {"--row-cache", &raw.row_cache,
       "with --data FILE --device-memory: CSV and LIBSVM rows are parsed once (NPY\n"
       "that is not float32 in C order: converted once), into a cache of float32 rows\n"
       "every pass reads (default on; off: parsed or converted every pass), in host\n"
       "memory up to --row-cache-memory, else in a file in --row-cache-dir that is\n"
       "removed at once; a cache that cannot be written: read every pass, a warning",
       "on|off"},
      {"--row-cache-memory", &raw.row_cache_memory,
       "default: a quarter of the host's memory (suffix K, M, G)", "BYTES"},
      {"--row-cache-dir", &o.row_cache.dir, "default: $TMPDIR, else /tmp", "DIR"},
  };
  for (const auto& w : words) app.add_option(w.name, *w.value, w.help)->type_name(w.type);
  app.add_flag("--header", raw.header, "CSV: the first row is a header (default: detected)");
  app.add_flag("--no-header", raw.no_header, "CSV: the first row is data");
  app.add_flag("--keep-going", o.keep_going, "--devices: a device that fails drops out, the others go on");
}

void finish(Options& o, const RawOptions& raw) {
  if (raw.mode == "predict")
    o.mode = Mode::predict;
  else if (!raw.mode.empty() && raw.mode != "train")
    throw porta::cli::UsageError("unexpected argument '" + raw.mode + "'; expected train or predict");
  if (!raw.csv.empty()) {
    if (!o.data.empty()) throw porta::cli::UsageError("--csv and --data both name a data file; give one");
    o.data = raw.csv;
    o.read.format = porta::data::Format::csv;
  }
  if (!raw.format.empty()) {
    o.read.format = porta::data::format_from_name(raw.format);
    if (!o.read.format)
      throw porta::cli::UsageError("--format wants csv, npy or libsvm, not '" + raw.format + "'");
  }
  if (raw.header && raw.no_header)
    throw porta::cli::UsageError("--header and --no-header contradict each other");
  o.read.header = raw.header      ? porta::data::Header::yes
                  : raw.no_header ? porta::data::Header::no
                                  : porta::data::Header::detect;
  if (!raw.device_memory.empty()) {
    o.device_memory = parse_bytes("--device-memory", raw.device_memory);
    if (o.device_memory == 0)
      throw porta::cli::UsageError("--device-memory wants a positive number of bytes");
  }
  if (!raw.row_cache.empty()) {
    if (raw.row_cache != "on" && raw.row_cache != "off")
      throw porta::cli::UsageError("--row-cache wants on or off, not '" + raw.row_cache + "'");
    o.row_cache.enabled = raw.row_cache == "on";
  }
  if (!raw.row_cache_memory.empty())
    o.row_cache.memory_budget = parse_bytes("--row-cache-memory", raw.row_cache_memory);
  o.row_cache.warn = [](const std::string& warning) {
    std::fprintf(stderr, "porta-logreg: warning: %s (--row-cache-dir chooses the folder)\n", warning.c_str());
  };
  if ((!o.devices.empty() || o.device_memory) && !raw.dtype.empty() && raw.dtype != "f32")
    throw porta::cli::UsageError("--devices and --device-memory train on float32 features; --dtype " +
                                 raw.dtype + " goes with one device");
  if (!raw.samples.empty()) {
    o.samples = parse_count("--samples", raw.samples);
    o.generated = true;
  }
  if (!raw.features.empty()) {
    o.features = parse_count("--features", raw.features);
    if (o.data.empty())
      o.generated = true;
    else
      o.read.features = o.features;
  }
  if (o.generated && !o.data.empty())
    throw porta::cli::UsageError("--samples generates data; it does not go with --data");
  if (!raw.iterations.empty()) o.iterations = parse_count("--iterations", raw.iterations);
  if (!raw.seed.empty()) o.seed = parse_count("--seed", raw.seed);
  if (!raw.report_every.empty()) o.report_every = parse_count("--report-every", raw.report_every);
  if (!raw.dtype.empty() && !porta::dtype_from_name(raw.dtype, &o.dtype))
    throw porta::cli::UsageError("--dtype wants f32, f16, bf16 or int8, not '" + raw.dtype + "'");
  if (!raw.lr.empty()) o.lr = parse_number("--lr", raw.lr);
  if (!raw.standardize.empty()) {
    if (raw.standardize != "on" && raw.standardize != "off")
      throw porta::cli::UsageError("--standardize wants on or off, not '" + raw.standardize + "'");
    o.standardize = raw.standardize == "on";
  }
  if (!raw.test_fraction.empty()) {
    o.test_fraction = parse_number("--test-fraction", raw.test_fraction);
    if (!(o.test_fraction >= 0 && o.test_fraction < 1))
      throw porta::cli::UsageError("--test-fraction wants a share 0 <= F < 1, not '" + raw.test_fraction +
                                   "'");
  }
  if (o.mode == Mode::predict) {
    if (o.load_model.empty()) throw porta::cli::UsageError("predict needs the model: --load-model FILE");
    if (o.data.empty()) throw porta::cli::UsageError("predict needs the rows to predict: --data FILE");
    if (o.generated || !o.save_model.empty() || o.test_fraction > 0 || o.backend == "all")
      throw porta::cli::UsageError("predict takes --load-model, --data (and how to read it) and --out only");
  } else if (o.out != "-") {
    throw porta::cli::UsageError("--out goes with predict; a trained model is written with --save-model");
  }
  if (!o.read.labels_path.empty() && o.data.empty())
    throw porta::cli::UsageError("--labels goes with --data FILE (NPY features)");
  if (!std::isfinite(o.lr))
    throw std::runtime_error("the learning rate --lr " + std::to_string(o.lr) + " is not finite");
  if (o.lr <= 0)
    throw std::runtime_error("the learning rate --lr must be positive, not " + std::to_string(o.lr));
}

}  // namespace logreg_tool
