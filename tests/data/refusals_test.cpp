// Every refusal of the text parsers, listed in refusals.json: the format, the
// input, the parser's one setting (CSV: the label column; LIBSVM: the feature
// count), and what the message must say: the file, the line and column, what
// was found and what was expected.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "error_of.hpp"
#include "porta_data/csv.hpp"
#include "porta_data/libsvm.hpp"

using namespace porta::data;

namespace {

void parse(const std::string& format, const std::string& input, const std::string& option) {
  if (format == "csv") {
    take_label(parse_csv(input, "t.csv", Header::detect), option);
  } else {
    LibsvmOptions o;
    o.features = std::stoull(option);
    parse_libsvm(input, "t.svm", o);
  }
}

}  // namespace

TEST(Refusals, EachNamesPlaceAndExpectation) {
  std::ifstream in(PORTA_DATA_REFUSALS);
  ASSERT_TRUE(in) << PORTA_DATA_REFUSALS;
  const nlohmann::json cases = nlohmann::json::parse(in);
  ASSERT_GT(cases.size(), 30u);
  for (const auto& c : cases) {
    const std::string input = c["input"];
    EXPECT_THAT(error_of([&] { parse(c["format"], input, c["option"]); }),
                ::testing::HasSubstr(c["message"].get<std::string>()))
        << "input: " << input;
  }
}
