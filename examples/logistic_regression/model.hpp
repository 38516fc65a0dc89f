// porta-logreg's model file: a small JSON document with the weights, the bias,
// the standardisation the weights expect, the feature count and names, how it
// was trained and porta's version. Written whole or not at all (a temporary
// file renamed over the target); read back with every field checked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data.hpp"

namespace logreg_tool {

struct Model {
  uint64_t features = 0;
  std::vector<float> w;
  float b = 0;
  Standardization standardization;  // empty: the features are used as they are
  std::vector<std::string> feature_names;
  // How it was trained (written for people; not needed to predict).
  std::string porta_version, device, data;
  uint64_t samples = 0, iterations = 0;
  double lr = 0, loss = 0;

  // P(y = 1 | row) for a row already standardised.
  double probability(const float* row) const;
};

void save_model(const std::string& path, const Model& model);
// Throws std::runtime_error naming the file and the field that is wrong.
Model load_model(const std::string& path);

}  // namespace logreg_tool
