// porta-conformance's model: cases (one row of an op's case table), the
// outputs a case produces on the device under test and on the reference (the
// CPU backend), and the judged result.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "json.hpp"
#include "porta/porta.hpp"

namespace porta::conformance {

// The built-in ops, in report order.
const std::vector<std::string>& builtin_ops();

// Value classes a case's inputs are drawn from.
enum class Values {
  kNormal,
  kNegative,
  kTiny,
  kHuge,
  kZeros,
  kDenormal,
  kInf,
  kNan,
  kInfNan,
  kMixed,
  kSaturated
};
const char* values_name(Values v);

// One case of an op's table. Fields an op does not use stay at their defaults.
struct Case {
  std::string op;
  std::string name{};  // unique within the op; --case NAME replays it
  bool full_only = false;
  Values values = Values::kNormal;
  // Elementwise ops: n elements at element offsets off[] (a/x, b, out).
  uint64_t n = 0;
  uint64_t off[3] = {0, 0, 0};
  bool in_place = false;
  // add: 0 same shapes (n elements); else a is m x n and b broadcasts over it:
  // 1 a row of n, 2 a column of m (m x 1), 3 one element.
  int broadcast = 0;
  std::vector<uint64_t> shape{};  // fill: the view's shape (product n)
  float scalar = 0;               // fill: the value; scale: alpha
  // matmul: C (m x n) = alpha op(A) op(B) + beta C, op(A) m x k; rows padded by `pad`, views start at off[0].
  // logreg_step: X is m x n (d = n), rows padded by `pad`.
  uint64_t m = 0, k = 0, pad = 0;
  bool trans_a = false, trans_b = false;
  float alpha = 1, beta = 0;
  // gemm: as matmul, with A and B of `input`, a batch of `batch` matrices
  // (0: rank-2 operands; each batch's matrices lie a padded matrix apart), a
  // bias over N and an activation (porta_gemm_activation).
  porta_dtype input = PORTA_DTYPE_FLOAT32;
  uint64_t batch = 0;
  bool bias = false;
  int activation = 0;
  bool workspace = false;  // logreg_step: pass an explicit workspace
  // logreg_step: X stored as float16, bfloat16 or int8 (a scale per column),
  // rows padded to whole words; the oracle takes X as stored (decoded).
  porta_dtype x_dtype = PORTA_DTYPE_FLOAT32;
  float lr = 0.3f;
  uint64_t elements() const;  // output elements, for the report
};

// Every case of `op`: the --quick table, or the --full one (a superset).
std::vector<Case> cases_of(const std::string& op, bool full);

// A case's data seed: the run's seed mixed with the op and case name, so a
// case draws the same data whether it runs alone (--case) or with the rest.
uint64_t case_seed(uint64_t run_seed, const std::string& op, const std::string& name);

// kHang: the case never finished (the device's process ran past --timeout,
// or a dispatch past its PORTA_TIMEOUT limit); kCrash: the process died.
enum class Outcome { kPass, kFail, kSkip, kDeviation, kCrash, kHang };
constexpr int kOutcomeCount = 6;
const char* outcome_name(Outcome o);

struct CaseResult {
  std::string backend, device;
  int device_index = 0;
  std::string op, name;
  uint64_t seed = 0;  // the run's seed (--seed)
  Outcome outcome = Outcome::kPass;
  double worst_error = 0, worst_bound = 0;  // at the element closest to (or furthest past) its bound
  std::string unit;                         // "ulp", "abs", "bits"
  std::string detail;     // why it failed (first elements), why it was skipped, what deviated
  std::string deviation;  // a named deviation ("flushes denormals"), also on passes
  std::string replay;     // the command that runs just this case
  double seconds = 0;
  uint64_t elements = 0;

  Json to_json() const;
  static CaseResult from_json(const Json& j);
};

// One output of a case: its buffer's contents before the op and after it on
// the device under test and on the reference, the elements the op must write,
// and the float64 oracle for those.
struct Output {
  std::string name;
  std::vector<float> before;
  std::vector<float> dut, ref;  // ref empty when the device under test is the reference
  std::vector<uint8_t> inside;  // 1: the op writes this element
  std::vector<double> exact;    // oracle (inside elements)
  std::vector<double> bound;    // kAbsolute bounds against the exact value (inside elements)
  std::vector<float> flushed;   // the result a device that flushes denormals gives (optional)
  // What a device giving `flushed` does, when that is something else a
  // device may do than flush denormals (a deviation of that name).
  std::string alternative;
  // Optional, kAbsolute ops: how far flushing denormal operands and
  // intermediates to zero can move an element beyond its bound.
  std::vector<double> flush_allowance;
  // Optional: an element this close to the exact value (absolute, finite exact values only)
  // is what a device doing `alternative` may give: a deviation, not a failure.
  std::vector<double> alternative_bound;
  std::vector<float> qualitative_max;  // optional; not NaN: judged as finite and in [0, value] instead
  std::function<std::string(uint64_t)> where;  // "C[3][4]" for buffer element i
};

// Judges `outputs` by `op`'s tolerance row; fills outcome, worst error and detail.
void judge(const std::string& op, const std::vector<Output>& outputs, CaseResult& result);

// The devices a case runs on: the one under test and the CPU backend.
struct Devices {
  porta::Device dut;
  std::optional<porta::Device> ref;  // empty when dut is the CPU backend itself
  std::string ref_unavailable;       // why there is no reference, when there should be one
};

// The type cases (type_cases.cpp): ops named after an element type ("fp16",
// "bf16", "int8", "int16"), their cases, and running one.
const std::vector<std::string>& type_ops();
std::vector<Case> type_cases(const std::string& op);
std::vector<Output> run_type_case(Devices& devices, const Case& c, uint64_t seed);

// Runs one case on `devices` and judges it (never throws).
CaseResult run_case(Devices& devices, const Case& c, uint64_t run_seed);

// The result of case `name` of `op` on `devices.dut`, timed: `body` runs the
// case and fills in the outcome. A porta::Error for a feature, limit or memory
// the device lacks makes the case a skip, any other exception a failure.
CaseResult run_timed(Devices& devices, const std::string& op, const std::string& name,
                     const std::function<void(CaseResult&)>& body);

// The NaN pattern every output is filled with before a case: a signalling NaN
// no arithmetic produces, so an element still holding it was never written.
constexpr uint32_t kUnwrittenBits = 0x7f80deadu;
float unwritten();

}  // namespace porta::conformance
