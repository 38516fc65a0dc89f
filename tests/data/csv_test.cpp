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

TEST(Csv, MalformedRowNamesLineColumnAndExpectation) {
  EXPECT_THAT(error_of([] { csv("1,2,0\n3,abc,1\n"); }),
              HasSubstr("t.csv:2:3: 'abc' is not a number; expected a finite number in column 2"));
  EXPECT_THAT(error_of([] { csv("a,b,y\n1,,0\n"); }),
              HasSubstr("t.csv:2:3: an empty field; expected a number in column 2 ('b')"));
  EXPECT_THAT(error_of([] { csv("1,2,0\n3,4,1,5\n"); }),
              HasSubstr("t.csv:2:7: 4 fields; expected 3 as on line 1"));
  EXPECT_THAT(error_of([] { csv("1,2,0\n3,4\n"); }), HasSubstr("t.csv:2: 2 fields; expected 3 as on line 1"));
  EXPECT_THAT(error_of([] { csv("1,2,0\n3,4,\n"); }),
              HasSubstr("t.csv:2:5: an empty field; expected a number in column 3"));
  EXPECT_THAT(error_of([] { csv("1,\"2,0\n"); }),
              HasSubstr("t.csv:1:3: the quoted field never ends; expected a closing '\"'"));
  EXPECT_THAT(error_of([] { csv("1,\"2\"x,0\n"); }), HasSubstr("t.csv:1:6: found 'x' after a quoted field"));
  EXPECT_THAT(error_of([] { csv("1,2\"x,0\n"); }), HasSubstr("t.csv:1:4: a quote inside an unquoted field"));
}

TEST(Csv, NonFiniteAndOutOfRangeValuesAreRefused) {
  EXPECT_THAT(error_of([] { csv("0,0,0\n1,nan,0\n"); }),
              HasSubstr("t.csv:2:3: 'nan' is not finite; expected a finite number in column 2"));
  EXPECT_THAT(error_of([] { csv("0,0,0\n1,-inf,0\n"); }), HasSubstr("t.csv:2:3: '-inf' is not finite"));
  EXPECT_THAT(error_of([] { csv("0,1e39,0\n"); }), HasSubstr("t.csv:1:3: '1e39' is outside float32's range"));
  EXPECT_THAT(error_of([] { csv("0,1e999,0\n"); }), HasSubstr("is outside float32's range"));
}

TEST(Csv, LabelsMustBeZeroOrOne) {
  EXPECT_THAT(error_of([] { csv("0,0\n1,2\n"); }),
              HasSubstr("t.csv:2: column 2: the label is 2.000000; expected 0 or 1"));
  EXPECT_THAT(error_of([] { csv("0,0.5\n"); }), HasSubstr("expected 0 or 1"));
  EXPECT_THAT(error_of([] { csv("0,-1\n"); }), HasSubstr("expected 0 or 1"));
}

TEST(Csv, MissingLabelColumn) {
  EXPECT_THAT(
      error_of([] { csv("a,b,c\n1,2,0\n", "target"); }),
      HasSubstr("t.csv: no label column 'target'; expected one of the header's names ('a', 'b', 'c') or a "
                "0-based column index"));
  EXPECT_THAT(error_of([] { csv("1,2,0\n", "3"); }),
              HasSubstr("label column 3 does not exist; the rows have 3 columns (0 to 2)"));
  EXPECT_THAT(error_of([] { csv("1,2,0\n", "y"); }), HasSubstr("(the file has no header row)"));
  EXPECT_THAT(error_of([] { csv("1\n0\n"); }), HasSubstr("expected at least one feature and a label"));
}

TEST(Csv, EmptyFiles) {
  EXPECT_THAT(error_of([] { csv(""); }), HasSubstr("t.csv: holds no rows"));
  EXPECT_THAT(error_of([] { csv("# only a comment\n\n  \r\n"); }), HasSubstr("t.csv: holds no rows"));
  EXPECT_THAT(error_of([] { csv("a,b,y\n"); }), HasSubstr("has a header row but no data rows"));
}

TEST(Csv, LastRowWithoutLineBreak) {
  EXPECT_THAT(csv("1,0\n2,1").x, ElementsAre(1, 2));
  // A delimiter last in the file (found by fuzzing: it read past the end).
  EXPECT_THAT(error_of([] { csv("1,2,0\n3,4,"); }), HasSubstr("t.csv:2:5: an empty field"));
  EXPECT_THAT(error_of([] { csv("1,2,0\n3,4, "); }), HasSubstr("t.csv:2:6: an empty field"));
  EXPECT_THAT(error_of([] { csv("1,2,0\n3,4,0,"); }), HasSubstr("t.csv:2:7: 4 fields; expected 3"));
}

TEST(Csv, FeaturesOnly) {
  Table t = without_label(parse_csv("1,2\n3,4\n", "t.csv", Header::detect));
  EXPECT_FALSE(t.has_labels());
  EXPECT_EQ(t.features, 2u);
}
