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

TEST(Libsvm, BadRowsNamePlaceAndExpectation) {
  EXPECT_THAT(error_of([] { svm("2 1:1\n"); }),
              HasSubstr("t.svm:1:1: the label '2' is not a class; expected 0, 1, -1 or +1"));
  EXPECT_THAT(error_of([] { svm("1 1:1\nyes 1:1\n"); }),
              HasSubstr("t.svm:2:1: the label 'yes' is not a number"));
  EXPECT_THAT(error_of([] { svm("1 1:1 2\n"); }),
              HasSubstr("t.svm:1:7: '2' has no ':'; expected index:value"));
  EXPECT_THAT(error_of([] { svm("1 0:1\n"); }), HasSubstr("t.svm:1:3: index 0; LIBSVM indices start at 1"));
  EXPECT_THAT(error_of([] { svm("1 2:1 2:3\n"); }),
              HasSubstr("t.svm:1:7: index 2 after index 2; expected increasing indices"));
  EXPECT_THAT(error_of([] { svm("1 3:1 2:3\n"); }), HasSubstr("index 2 after index 3"));
  EXPECT_THAT(error_of([] { svm("1 x:1\n"); }), HasSubstr("t.svm:1:3: the index 'x' is not a whole number"));
  EXPECT_THAT(error_of([] { svm("1 1:nan\n"); }), HasSubstr("t.svm:1:5: the value 'nan' is not finite"));
  EXPECT_THAT(error_of([] { svm("1 1:\n"); }), HasSubstr("t.svm:1:5: the value '' is not a number"));
  EXPECT_THAT(error_of([] { svm("1 qid:3 1:1\n"); }), HasSubstr("qid (ranking data) is not supported"));
}

TEST(Libsvm, EmptyAndFeatureless) {
  EXPECT_THAT(error_of([] { svm(""); }), HasSubstr("t.svm: holds no rows"));
  EXPECT_THAT(error_of([] { svm("# nothing\n\n"); }), HasSubstr("t.svm: holds no rows"));
  EXPECT_THAT(error_of([] { svm("1\n0\n"); }), HasSubstr("no row has a feature"));
}

TEST(Libsvm, AHugeIndexIsRefusedNotAllocated) {
  EXPECT_THAT(error_of([] { svm("1 99999999999:1\n", 0, 1 << 20); }),
              HasSubstr("more values than a dense table may hold here"));
}
