// porta-bench's report: the table (stdout, or stderr when the JSON goes to
// stdout), the targets it can judge alone, and --json.
#pragma once

#include <cstdio>
#include <string>

#include "bench.hpp"

namespace porta::bench {

// One result line of the table (also printed to stderr as each is measured).
void print_row(FILE* out, const Row& r);

void print_table(const Bench& bench, FILE* out);

// The targets that this run can judge alone (PyTorch's are judged by
// bench/gpu/torch_compare.py from this run's JSON); targets.cpp.
void print_targets(const Bench& bench, FILE* out);

// The whole run as JSON to `path` ("-": standard output); throws
// std::runtime_error when it cannot be written.
void write_json(const Bench& bench, const std::string& path);

}  // namespace porta::bench
