#include "porta_data/libsvm.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "error_of.hpp"

using namespace porta::data;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

Table svm(std::string_view text, uint64_t features = 0, uint64_t max_values = uint64_t{1} << 32) {
  LibsvmOptions o;
  o.features = features;
  o.max_values = max_values;
  return parse_libsvm(text, "t.svm", o);
}

}  // namespace

TEST(Libsvm, SparseRowsToDense) {
  Table t = svm("+1 1:0.5 3:2\n-1 2:1.5 # a comment\n# a whole comment line\n\n0\n1 3:-1\r\n");
  EXPECT_EQ(t.rows, 4u);
  EXPECT_EQ(t.features, 3u);
  EXPECT_THAT(t.x, ElementsAre(0.5f, 0, 2, 0, 1.5f, 0, 0, 0, 0, 0, 0, -1));
  EXPECT_THAT(t.y, ElementsAre(1, 0, 0, 1));
}

TEST(Libsvm, FeatureCountGiven) {
  Table t = svm("1 1:1\n0 2:1\n", 4);
  EXPECT_EQ(t.features, 4u);
  EXPECT_EQ(t.x.size(), 8u);
  EXPECT_THAT(error_of([] { svm("1 1:1\n0 5:1\n", 4); }),
              HasSubstr("t.svm:2:3: index 5 is past the 4 features asked for (--features)"));
}

TEST(Libsvm, AHugeIndexIsRefusedNotAllocated) {
  EXPECT_THAT(error_of([] { svm("1 99999999999:1\n", 0, 1 << 20); }),
              HasSubstr("more values than a dense table may hold here"));
}
