// porta::common::format: the whole formatted text, however long, and nothing
// more.
#include "porta_common/format.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(Format, KeepsTextLongerThanAnyFixedBuffer) {
  const std::string cause(5000, 'x');
  const std::string text = porta::common::format("%s: %s (%d)", "matmul", cause.c_str(), 42);
  ASSERT_EQ(text.size(), 6u + 2 + 5000 + 5);
  EXPECT_EQ(text, "matmul: " + cause + " (42)");
}

TEST(Format, EmptyResultIsAnEmptyString) {
  const char* empty = "";
  EXPECT_EQ(porta::common::format("%s", empty), "");
  EXPECT_EQ(porta::common::format("%s", empty).size(), 0u);
}

}  // namespace
