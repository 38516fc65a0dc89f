// porta-bench's report: the table (stdout, or stderr when the JSON goes to
// stdout), with the energy figures, and --json. The targets: targets.hpp.
#pragma once

#include <cstdio>
#include <string>

#include "bench.hpp"
#include "targets.hpp"

namespace porta::bench {

// One result line of the table (also printed to stderr as each is measured).
void print_row(FILE* out, const Row& r);

void print_table(const Bench& bench, FILE* out);

// The whole run as JSON to `path` ("-": standard output), with the targets
// judged from it; throws std::runtime_error when it cannot be written.
void write_json(const Bench& bench, const std::vector<Target>& targets, const std::string& path);

}  // namespace porta::bench
