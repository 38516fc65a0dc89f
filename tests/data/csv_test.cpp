#include "porta_data/csv.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "error_of.hpp"

using namespace porta::data;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

Table csv(std::string_view text, const std::string& label = "", Header header = Header::detect) {
  return take_label(parse_csv(text, "t.csv", header), label);
}

}  // namespace

TEST(Csv, HeaderlessLabelLast) {
  Table t = csv("1,2,0\n3,4,1\n");
  EXPECT_EQ(t.rows, 2u);
  EXPECT_EQ(t.features, 2u);
  EXPECT_THAT(t.x, ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(t.y, ElementsAre(0, 1));
  EXPECT_TRUE(t.feature_names.empty());
}

TEST(Csv, HeaderDetectedAndLabelByName) {
  Table t = csv("a,label,b\n1,1,2\n3,0,4\n", "label");
  EXPECT_THAT(t.x, ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(t.y, ElementsAre(1, 0));
  EXPECT_THAT(t.feature_names, ElementsAre("a", "b"));
}

TEST(Csv, LabelByIndex) {
  Table t = csv("0,1,2\n1,3,4\n", "0");
  EXPECT_THAT(t.x, ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(t.y, ElementsAre(0, 1));
}

TEST(Csv, HeaderForcedOnANumericFirstRow) {
  Table t = csv("10,20,30\n1,2,1\n", "", Header::yes);
  EXPECT_EQ(t.rows, 1u);
  EXPECT_THAT(t.feature_names, ElementsAre("10", "20"));
}

TEST(Csv, NoHeaderForcedRefusesAWordAtItsPlace) {
  EXPECT_THAT(error_of([] { csv("x,y\n1,0\n", "", Header::no); }),
              HasSubstr("t.csv:1:1: 'x' is not a number; expected a finite number in column 1"));
}

TEST(Csv, QuotedFieldsCrlfCommentsAndBlankLines) {
  Table t =
      csv("# a comment\r\n\"f,1\",\"say \"\"hi\"\"\",y\r\n\r\n\"1.5\",2,1\r\n  # another\r\n-3,+4e1,0\r\n");
  EXPECT_THAT(t.feature_names, ElementsAre("f,1", "say \"hi\""));
  EXPECT_THAT(t.x, ElementsAre(1.5f, 2, -3, 40));
  EXPECT_THAT(t.y, ElementsAre(1, 0));
}

TEST(Csv, QuotedLineBreakCountsLines) {
  EXPECT_THAT(error_of([] { csv("\"a\nb\",y\n1,0\n2,x\n"); }), HasSubstr("t.csv:4:3: 'x' is not a number"));
}

TEST(Csv, BlankSeparatedSemicolonsAndTabs) {
  EXPECT_THAT(csv("1 2  0\n 3\t4 1 \n").x, ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(csv("1;2;0\n3;4;1\n").x, ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(csv("1\t2\t0\n3\t4\t1\n").y, ElementsAre(0, 1));
}

TEST(Csv, LastRowWithoutLineBreak) {
  EXPECT_THAT(csv("1,0\n2,1").x, ElementsAre(1, 2));
  // A delimiter last in the file (found by fuzzing: it read past the end).
}

TEST(Csv, FeaturesOnly) {
  Table t = without_label(parse_csv("1,2\n3,4\n", "t.csv", Header::detect));
  EXPECT_FALSE(t.has_labels());
  EXPECT_EQ(t.features, 2u);
}
