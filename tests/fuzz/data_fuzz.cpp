// libFuzzer entry points for porta_data's parsers (tools/data), one binary a
// format: PORTA_FUZZ_FORMAT is 0 (CSV), 1 (NPY) or 2 (LIBSVM). Any input must
// end in a table whose invariants hold or in porta::data::Error; anything else
// (a crash, a sanitizer report, another exception, a broken invariant) is a bug.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "porta_data/csv.hpp"
#include "porta_data/libsvm.hpp"
#include "porta_data/npy.hpp"

namespace {

using namespace porta::data;

void require(bool ok) {
  if (!ok) std::abort();
}

void check(const Table& t) {
  require(t.rows > 0 && t.features > 0);
  require(t.x.size() == t.rows * t.features);
  require(t.y.empty() || t.y.size() == t.rows);
  for (float v : t.x) require(std::isfinite(v));
  for (float v : t.y) require(v == 0 || v == 1);
  require(t.feature_names.empty() || t.feature_names.size() == t.features);
}

template <class F>
void expect_table_or_error(F&& parse) {
  try {
    check(parse());
  } catch (const Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
#if PORTA_FUZZ_FORMAT == 0
  for (Header h : {Header::detect, Header::yes, Header::no}) {
    expect_table_or_error([&] { return take_label(parse_csv(text, "fuzz.csv", h), ""); });
    expect_table_or_error([&] { return take_label(parse_csv(text, "fuzz.csv", h), "0"); });
  }
#elif PORTA_FUZZ_FORMAT == 1
  expect_table_or_error([&] { return parse_npy(text, "fuzz.npy", true); });
  expect_table_or_error([&] { return parse_npy(text, "fuzz.npy", false); });
  try {
    NpyFile f(text, "fuzz.npy");
    require(f.rows() > 0 && f.cols() > 0);
    const float* mapped = f.mapped_f32();
    require(!mapped || f.header().data_offset + f.rows() * f.cols() * 4 == size);
  } catch (const Error&) {
  }
#else
  LibsvmOptions o;
  o.max_values = 1 << 20;  // a stray huge index is refused, not allocated
  expect_table_or_error([&] { return parse_libsvm(text, "fuzz.svm", o); });
  o.features = 4;
  expect_table_or_error([&] { return parse_libsvm(text, "fuzz.svm", o); });
#endif
  return 0;
}
