// porta-conformance's report: a table per device, the backends x ops matrix,
// the failures with their replay commands; as text, JSON, JUnit XML and a
// self-contained HTML page.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "suite.hpp"

namespace porta::conformance {

struct DeviceReport {
  std::string backend, device;
  int index = -1;               // -1: the backend is unavailable (no device ran)
  std::string status;           // "ran", "unavailable", "crashed", "hung", "failed to start"
  std::string reason;           // why unavailable / how it crashed
  bool reference = false;       // the CPU backend: judged against the float64 oracle
  bool reference_only = false;  // --kernel: run as the reference though --backend did not select it
  bool lacks_features = false;  // --kernel: not run, the device lacks a feature of --requires
  std::vector<CaseResult> cases;
  std::string label() const;  // "vulkan:0" or "cuda"
  std::vector<std::string> deviations() const;
};

struct RunReport {
  std::string mode;  // "quick", "full" or "kernel FILE"
  uint64_t seed = 0;
  std::vector<std::string> ops;  // columns of the matrix
  std::string command;
  std::vector<DeviceReport> devices;
  double seconds = 0;
};

void print_text(const RunReport& report, FILE* out);
void write_json(const RunReport& report, const std::string& path);
void write_junit(const RunReport& report, const std::string& path);
void write_html(const RunReport& report, const std::string& path);
// 1 on any failure or crash; 77 when nothing selected was available; else 0.
int exit_status(const RunReport& report);

}  // namespace porta::conformance
