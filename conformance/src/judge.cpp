// Judging a case's outputs by its op's row of the tolerance table: the CPU
// backend against the float64 oracle, the device under test against the CPU
// backend; unwritten elements, writes outside the view and flushed denormals
// are named as such.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>

#include "suite.hpp"
#include "tolerances.hpp"

namespace porta::conformance {

float unwritten() {
  float f;
  std::memcpy(&f, &kUnwrittenBits, 4);
  return f;
}

const char* outcome_name(Outcome o) {
  static const char* const kNames[] = {"PASS",      "FAIL",  "SKIP",
                                       "DEVIATION", "CRASH", "HANG"};  // in Outcome's order
  static_assert(std::size(kNames) == kOutcomeCount);
  return kNames[static_cast<int>(o)];
}

namespace {

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b); }

std::string show(float f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g (0x%08x)", static_cast<double>(f), bits(f));
  return buf;
}

std::string show(double d) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

struct Judgement {
  bool ok;
  double error, bound;
};

// Against the exact value. `abs_bound` is the element's kAbsolute bound.
Judgement against_exact(const Tolerance& t, float got, double exact, double abs_bound) {
  if (std::isnan(exact)) return {std::isnan(got), std::isnan(got) ? 0.0 : INFINITY, 0};
  if (std::isinf(exact))
    return {static_cast<double>(got) == exact, static_cast<double>(got) == exact ? 0 : INFINITY, 0};
  switch (t.kind) {
    case BoundKind::kExact:
    case BoundKind::kCorrectlyRounded: {
      // An exact value past FLT_MAX rounds to infinity: correct rounding, no error to measure.
      const float want = round_to(t.dtype, exact);
      const bool ok = same(got, want);
      return {ok, ok && std::isinf(want) ? 0.0 : ulp_error_in(t.dtype, got, exact), t.ulps};
    }
    case BoundKind::kUlp: {
      const double e = test::ulp_error(got, exact);
      return {e <= t.ulps, e, t.ulps};
    }
    case BoundKind::kAbsolute: {
      const double e = std::fabs(static_cast<double>(got) - exact);
      return {e <= abs_bound, std::isnan(e) ? INFINITY : e, abs_bound};
    }
  }
  return {false, INFINITY, 0};
}

// Against the CPU backend's result.
Judgement against_reference(const Tolerance& t, float got, float ref, double abs_bound) {
  if (std::isnan(ref)) return {std::isnan(got), std::isnan(got) ? 0.0 : INFINITY, 0};
  if (std::isinf(ref)) return {got == ref, got == ref ? 0 : INFINITY, 0};
  if (t.reference_factor == 0) return {same(got, ref), test::ulp_distance(got, ref), 0};
  if (t.kind == BoundKind::kUlp) {
    const double e = test::ulp_distance(got, ref);
    return {e <= t.reference_factor * t.ulps, e, t.reference_factor * t.ulps};
  }
  const double e = std::fabs(static_cast<double>(got) - ref);
  const double b = t.reference_factor * abs_bound;
  return {e <= b, std::isnan(e) ? INFINITY : e, b};
}

// Qualitative judgement (outside the range a ulp bound covers).
Judgement qualitative(float got, float max) {
  const bool ok = std::isfinite(got) && got >= 0 && got <= max;
  return {ok, 0, 0};
}

struct Tally {
  int failures = 0;
  int flushed = 0;
  double worst_ratio = -1;
  std::string detail;
  static constexpr int kShown = 5;

  void fail(const std::string& line) {
    if (failures < kShown) detail += (detail.empty() ? "" : "\n") + line;
    ++failures;
  }
  void measure(const Judgement& j, CaseResult& r) {
    const double ratio = j.bound > 0 ? j.error / j.bound : (j.error > 0 ? INFINITY : 0);
    if (ratio > worst_ratio || worst_ratio < 0) {
      worst_ratio = ratio;
      r.worst_error = j.error;
      r.worst_bound = j.bound;
    }
  }
};

}  // namespace

void judge(const std::string& op, const std::vector<Output>& outputs, CaseResult& result) {
  const Tolerance& t = tolerance_of(op);
  result.unit = t.kind == BoundKind::kAbsolute ? "abs" : "ulp";
  Tally tally;
  std::string alternative;
  for (const Output& o : outputs)
    if (!o.alternative.empty()) alternative = o.alternative;
  const bool have_ref = !outputs.empty() && !outputs[0].ref.empty();
  const char* ref_name = "the CPU backend";
  for (const Output& o : outputs) {
    auto where = [&](uint64_t i) { return o.where ? o.where(i) : o.name + "[" + std::to_string(i) + "]"; };
    for (uint64_t i = 0; i < o.before.size(); ++i) {
      const float got = o.dut[i];
      if (!o.inside[i]) {
        if (bits(got) != bits(o.before[i]))
          tally.fail("element " + std::to_string(i) + " of '" + o.name +
                     "' lies outside the output view but was " + "overwritten: " + show(got) + ", was " +
                     show(o.before[i]));
        continue;
      }
      if (bits(got) == kUnwrittenBits) {
        tally.fail(where(i) + " (index " + std::to_string(i) +
                   ") was never written: it still holds the NaN fill " + "pattern 0x7f80dead");
        continue;
      }
      const double abs_bound = o.bound.empty() ? 0 : o.bound[i];
      const bool qual = !o.qualitative_max.empty() && !std::isnan(o.qualitative_max[i]);
      // The reference itself, against the oracle.
      if (have_ref) {
        const float ref = o.ref[i];
        const Judgement rj =
            qual ? qualitative(ref, o.qualitative_max[i]) : against_exact(t, ref, o.exact[i], abs_bound);
        if (bits(ref) == kUnwrittenBits || !rj.ok) {
          tally.fail(std::string("the reference (") + ref_name + ") is wrong at " + where(i) + ": " +
                     show(ref) + ", exact " + show(o.exact[i]) + ", error " + show(rj.error) + " > bound " +
                     show(rj.bound) + " " + result.unit);
          continue;
        }
      }
      Judgement j = qual       ? qualitative(got, o.qualitative_max[i])
                    : have_ref ? against_reference(t, got, o.ref[i], abs_bound)
                               : against_exact(t, got, o.exact[i], abs_bound);
      const bool within_flushing =
          !o.flush_allowance.empty() && o.flush_allowance[i] > 0 && j.error <= j.bound + o.flush_allowance[i];
      const bool within_alternative = !o.alternative_bound.empty() && std::isfinite(o.exact[i]) &&
                                      std::fabs(static_cast<double>(got) - o.exact[i]) <= o.alternative_bound[i];
      if (!j.ok && ((!o.flushed.empty() && same(got, o.flushed[i])) || within_flushing || within_alternative)) {
        ++tally.flushed;
        continue;
      }
      tally.measure(j, result);
      if (!j.ok) {
        std::string line = where(i) + " (index " + std::to_string(i) + ") = " + show(got);
        if (qual)
          line += ", outside [0, " + show(o.qualitative_max[i]) + "]";
        else if (have_ref)
          line += ", " + std::string(ref_name) + " gives " + show(o.ref[i]) + " (exact " + show(o.exact[i]) +
                  "): " + show(j.error) + " " + result.unit + " apart > bound " + show(j.bound) +
                  (j.bound == 0 ? " (the same bits)" : "");
        else
          line += ", exact " + show(o.exact[i]) + ": error " + show(j.error) + " " + result.unit +
                  " > bound " + show(j.bound);
        tally.fail(line);
      }
    }
  }
  if (tally.worst_ratio < 0) result.worst_error = result.worst_bound = 0;
  if (tally.failures > 0) {
    result.outcome = Outcome::kFail;
    result.detail = std::to_string(tally.failures) + " wrong element" + (tally.failures == 1 ? "" : "s") +
                    ":\n" + tally.detail;
    if (tally.failures > Tally::kShown) result.detail += "\n...";
  } else if (tally.flushed > 0) {
    result.outcome = Outcome::kDeviation;
    result.deviation = alternative.empty() ? "flushes denormals" : alternative;
    result.detail = std::to_string(tally.flushed) + " element" + (tally.flushed == 1 ? "" : "s") +
                    " differ only as far as a device that " +
                    (alternative.empty() ? "flushes denormals to zero" : alternative) + " may";
  } else {
    result.outcome = Outcome::kPass;
  }
}

Json CaseResult::to_json() const {
  Json j = Json::object();
  j["type"] = "case";
  j["backend"] = backend;
  j["device"] = device;
  j["device_index"] = device_index;
  j["op"] = op;
  j["case"] = name;
  j["seed"] = std::to_string(seed);
  j["outcome"] = outcome_name(outcome);
  j["worst_error"] = json_number(worst_error);
  j["worst_bound"] = json_number(worst_bound);
  j["unit"] = unit;
  j["detail"] = detail;
  j["deviation"] = deviation;
  j["replay"] = replay;
  j["seconds"] = json_number(seconds);
  j["elements"] = elements;
  return j;
}

CaseResult CaseResult::from_json(const Json& j) {
  CaseResult r;
  r.backend = text_at(j, "backend");
  r.device = text_at(j, "device");
  r.device_index = static_cast<int>(number_at(j, "device_index"));
  r.op = text_at(j, "op");
  r.name = text_at(j, "case");
  r.seed = std::strtoull(text_at(j, "seed", "0").c_str(), nullptr, 10);
  const std::string o = text_at(j, "outcome");
  for (Outcome c :
       {Outcome::kPass, Outcome::kFail, Outcome::kSkip, Outcome::kDeviation, Outcome::kCrash, Outcome::kHang})
    if (o == outcome_name(c)) r.outcome = c;
  r.worst_error = number_at(j, "worst_error");
  r.worst_bound = number_at(j, "worst_bound");
  r.unit = text_at(j, "unit");
  r.detail = text_at(j, "detail");
  r.deviation = text_at(j, "deviation");
  r.replay = text_at(j, "replay");
  r.seconds = number_at(j, "seconds");
  r.elements = static_cast<uint64_t>(number_at(j, "elements"));
  return r;
}

}  // namespace porta::conformance
