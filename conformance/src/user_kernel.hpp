// porta-conformance --kernel: a user's kernel on every device, each in its own
// process, with the same inputs; every buffer compared, typed by the kernel's
// reflected layout, with the reference (the CPU backend, or where it refuses
// the kernel, the device that agrees with the most others).
//
// The parent prepares a job folder (the SPIR-V with one entry point, the
// inputs, the spec-constant values), each device's process runs it and leaves
// its buffers there, and the parent judges them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "porta/porta.hpp"
#include "porta_translator/translator.hpp"
#include "report.hpp"
#include "suite.hpp"
#include "typed_buffers.hpp"

namespace porta::conformance {

struct UserKernel {
  std::string path;
  std::string groups = "1";
  std::vector<std::string> buffers;  // one spec per buffer parameter, in parameter order
  std::vector<std::string> push;     // appended in order
  std::vector<std::string> specs;    // ID=VALUE
  std::string entry;                 // the entry point of a module with several
  std::vector<std::string> expects;  // NAME=VALUE: the kernel's own expected values
  bool auto_inputs = false;          // --inputs auto
  uint64_t elements = 0;             // runtime-array elements; 0: the dispatch's invocations
  double tolerance_ulp = 4;
  std::vector<std::string> needs;  // feature names (porta/features.h)
  bool strict = false;             // a device that refuses the kernel fails
  bool layout = false;             // print the typed layout and exit
};

// What every device's process runs: prepared once by the parent.
struct KernelJob {
  std::string name;  // the file's name, for messages
  std::vector<uint32_t> spirv;
  porta::translator::KernelLayout layout;
  porta::Groups groups{1, 1, 1};
  std::vector<porta::SpecConstant> specs;  // 64-bit constants' values 64 bits wide
  std::vector<Bytes> buffers;              // initial contents, one per parameter
  Bytes push;
  uint64_t needs = 0;  // PORTA_FEATURE_* bits
  std::vector<Expectation> expects;
};

// Checks the command line's spelling of the kernel run (throws UsageError).
void validate(const UserKernel& k);

// Reads, compiles and reflects the kernel, generates the inputs. Throws
// UsageError for options that do not fit the kernel, porta::translator::Error
// for a kernel that does not compile or validate.
KernelJob prepare_job(const UserKernel& k, uint64_t seed);
void write_job(const KernelJob& job, const std::string& folder);
// The job's buffers as the kernel declares them, scalar by scalar (--layout).
std::string describe_layout(const KernelJob& job);

// The file device `backend:index` leaves its buffers in.
std::string output_file(const std::string& folder, const std::string& backend, int index);

// A device's process: runs the job in `folder` on `device` and writes the
// buffers to output_file(); never throws. The result's outcome is kPass when
// the kernel ran (judged later by the parent), kSkip when the device refused
// it (a feature it lacks), kFail when it failed.
CaseResult run_job(porta::Device& device, const std::string& folder);

// The features of `required` that `available` lacks, by name ("fp64 (64-bit float arithmetic)").
std::string missing_features(uint64_t required, uint64_t available);
// Feature names → bits (throws UsageError for an unknown name).
uint64_t parse_features(const std::vector<std::string>& names);

// The parent, once every device has run: compares each device's buffers with
// the reference's and sets its case's outcome and detail.
void judge_job(const KernelJob& job, const std::string& folder, const UserKernel& k, RunReport& report);

}  // namespace porta::conformance
