// A GoogleTest fixture on the device under test (PORTA_TEST_BACKEND), with a
// stream of its own: what the API's and the subgroup tests' fixtures share.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "porta/porta.hpp"
#include "support/backend_under_test.hpp"

namespace porta::test {

class DeviceTest : public ::testing::Test {
 protected:
  // The first `n` values of `b`, once the stream's work before is done.
  template <class T>
  std::vector<T> read(const porta::Buffer& b, size_t n) {
    std::vector<T> out(n);
    stream.read(b, out);
    stream.sync();
    return out;
  }

  porta::Device dev = open_under_test();
  porta::Stream stream = dev.stream();
};

}  // namespace porta::test
