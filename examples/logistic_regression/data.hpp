// The samples porta-logreg trains on: the classic example, generated
// separable data, or rows read from a file; checked before anything is trained.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace logreg_tool {

struct Data {
  uint64_t m = 0, d = 0;
  std::vector<float> x;  // m x d, row-major
  std::vector<float> y;  // m
  std::string name;
};

// 5 samples of 2 features: y is the second feature, so the data are separable.
Data classic();
// Separable data: features ~ N(0, 1), label = [x . w* + b* > 0] for a random
// hyperplane (w*, b*).
Data generated(uint64_t m, uint64_t dim, uint64_t seed);
// Rows of numbers separated by commas or blanks; the last one is the label.
Data load_csv(const std::string& path);
// Throws std::runtime_error naming the first sample that cannot be trained on.
void check_data(const Data& d);

}  // namespace logreg_tool
