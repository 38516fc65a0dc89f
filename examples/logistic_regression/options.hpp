// porta-logreg's command line: the options as the tool uses them, declared on
// porta's shared CLI (tools/common) and checked once parsed.
#pragma once

#include <cstdint>
#include <string>

#include "porta/porta.hpp"
#include "porta_cli.hpp"
#include "porta_data/row_cache.hpp"
#include "porta_data/table.hpp"

namespace logreg_tool {

enum class Mode { train, predict };

struct Options {
  Mode mode = Mode::train;
  std::string backend;
  // A data file (--data, or --csv: the same with --format csv) and how to read it.
  std::string data;
  porta::data::ReadOptions read;
  bool standardize = true;   // file data only: the classic and generated data are used as they are
  double test_fraction = 0;  // held out of training, chosen with --seed
  std::string save_model, load_model;
  std::string out = "-";  // predict: where the predictions go
  uint64_t samples = 0;   // 0: the classic example (or the CSV file)
  uint64_t features = 8;
  uint64_t iterations = 0;  // 0: the default for the data
  double lr = 0.5;
  uint64_t seed = 1;
  uint64_t report_every = 0;  // 0: about ten reports
  bool generated = false;
  porta_dtype dtype = PORTA_DTYPE_FLOAT32;  // of X on the device
  // Several devices (--devices, porta/parallel.h), a device-memory cap
  // (--device-memory: streams what does not fit) and MPI ranks: parallel.*.
  std::string devices;
  uint64_t device_memory = 0;
  bool keep_going = false;  // --keep-going: a failed device drops out
  // Rows streamed from a CSV or LIBSVM file: parsed once into this cache.
  porta::data::RowCacheOptions row_cache;
};

// The options, read as text and checked once parsed (parse_count's messages).
struct RawOptions {
  std::string mode, samples, features, iterations, seed, report_every, lr, dtype, device_memory;
  std::string csv, format, standardize, test_fraction, row_cache, row_cache_memory;
  bool header = false, no_header = false;
};

extern const char kDescription[];

// Declares every option on `command`, writing into `o` and `raw`.
void declare(porta::cli::Command& command, Options& o, RawOptions& raw);
// Turns `raw` into `o`; throws porta::cli::UsageError for a value that does
// not read and std::runtime_error for one that reads but cannot be used.
void finish(Options& o, const RawOptions& raw);

}  // namespace logreg_tool
