// porta-logreg's held-out split and standardisation (examples/logistic_regression/data.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <utility>

#include "data.hpp"

using namespace logreg_tool;

namespace {

// Row i holds the features (i, 7) and the label i % 2: a row is known by its first feature.
Data numbered(uint64_t m) {
  Data d;
  d.name = "numbered";
  d.m = m;
  d.d = 2;
  for (uint64_t i = 0; i < m; ++i) {
    d.x.push_back(static_cast<float>(i));
    d.x.push_back(7);
    d.y.push_back(static_cast<float>(i % 2));
  }
  return d;
}

std::vector<float> first_features(const Data& d) {
  std::vector<float> out;
  for (uint64_t i = 0; i < d.m; ++i) out.push_back(d.x[i * d.d]);
  return out;
}

}  // namespace

TEST(LogregSplit, HoldsOutTheShareDisjointAndInFileOrder) {
  const Split s = split(numbered(100), 0.25, 3);
  EXPECT_EQ(s.train.m, 75u);
  EXPECT_EQ(s.test.m, 25u);
  std::set<float> all;
  for (const Data* part : {&s.train, &s.test}) {
    const std::vector<float> rows = first_features(*part);
    EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
    all.insert(rows.begin(), rows.end());
    for (uint64_t i = 0; i < part->m; ++i)
      EXPECT_EQ(part->y[i], static_cast<float>(static_cast<int>(rows[i]) % 2));
  }
  EXPECT_EQ(all.size(), 100u);
}

TEST(LogregSplit, TheSeedChoosesTheRowsReproducibly) {
  EXPECT_EQ(first_features(split(numbered(50), 0.2, 1).test),
            first_features(split(numbered(50), 0.2, 1).test));
  EXPECT_NE(first_features(split(numbered(50), 0.2, 1).test),
            first_features(split(numbered(50), 0.2, 2).test));
}

TEST(LogregSplit, EdgeCases) {
  EXPECT_EQ(split(numbered(10), 0, 1).test.m, 0u);
  EXPECT_EQ(split(numbered(10), 0.01, 1).test.m, 1u);   // at least one held out
  EXPECT_EQ(split(numbered(10), 0.99, 1).train.m, 1u);  // at least one to train on
  EXPECT_THROW(split(numbered(1), 0.5, 1), std::runtime_error);
}

TEST(LogregStandardization, TrainingRowsGetMeanZeroStdOneAndConstantsStayFinite) {
  Split s = split(numbered(40), 0.25, 5);
  const Standardization st = Standardization::fit(s.train);
  EXPECT_EQ(st.std[1], 1.0f);  // the constant feature
  st.apply(s.train);
  st.apply(s.test);
  double sum = 0, squares = 0;
  for (float v : first_features(s.train)) {
    sum += v;
    squares += static_cast<double>(v) * v;
  }
  EXPECT_NEAR(sum / 30, 0, 1e-6);
  EXPECT_NEAR(squares / 30, 1, 1e-5);
  for (float v : s.test.x) EXPECT_TRUE(std::isfinite(v));
  EXPECT_EQ(s.test.x[1], 0.0f);  // 7 - mean 7, over 1
}

// Rows left in their file (--data FILE --device-memory) split, standardise
// and read back exactly as the same file read whole: the same rows in each
// part, the same standardisation bit for bit, the same standardised values.
TEST(LogregSplit, RowsInTheFileEqualRowsInMemory) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("porta-logreg-rows-" + std::to_string(::getpid()) + ".csv"))
          .string();
  {
    std::ofstream f(path);
    f << "a,b,label\n";
    for (int i = 0; i < 3001; ++i)
      f << (i * 0.37 - 100) << "," << ((i * 7919) % 101) * 0.01 << "," << i % 2 << "\n";
  }
  const porta::data::ReadOptions options;
  for (double fraction : {0.0, 0.3}) {
    Split whole = split(load(path, options), fraction, 11);
    Split rows = split(open_rows(path, options), fraction, 11);
    ASSERT_TRUE(rows.train.streamed());
    ASSERT_EQ(rows.train.m, whole.train.m);
    ASSERT_EQ(rows.test.m, whole.test.m);
    const Standardization a = Standardization::fit(whole.train), b = Standardization::fit(rows.train);
    EXPECT_EQ(a.mean, b.mean);
    EXPECT_EQ(a.std, b.std);
    for (Split* s : {&whole, &rows}) {
      a.apply(s->train);
      a.apply(s->test);
    }
    for (const auto& [held, file] : {std::pair{&whole.train, &rows.train}, {&whole.test, &rows.test}}) {
      if (!held->m) continue;
      const Data read = in_memory(*file);
      EXPECT_EQ(read.x, held->x);
      EXPECT_EQ(read.y, held->y);
    }
  }
  std::filesystem::remove(path);
}
