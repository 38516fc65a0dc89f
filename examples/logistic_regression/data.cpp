#include "data.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace logreg_tool {

Data classic() {
  // xi, xj -> y: y is xj, so the data are separable.
  Data d;
  d.name = "classic example (5 samples, 2 features)";
  d.m = 5;
  d.d = 2;
  const float xi[] = {0, 1, 1, 1, 1}, xj[] = {0, 0, 0, 1, 1}, y[] = {0, 0, 0, 1, 1};
  for (int i = 0; i < 5; ++i) {
    d.x.push_back(xi[i]);
    d.x.push_back(xj[i]);
    d.y.push_back(y[i]);
  }
  return d;
}

Data generated(uint64_t m, uint64_t dim, uint64_t seed) {
  Data d;
  d.m = m;
  d.d = dim;
  d.name = "generated separable data (seed " + std::to_string(seed) + ")";
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> truth(dim);
  for (auto& v : truth) v = normal(rng);
  const float bias = 0.25f * normal(rng);
  d.x.resize(m * dim);
  d.y.resize(m);
  for (uint64_t i = 0; i < m; ++i) {
    double z = bias;
    for (uint64_t j = 0; j < dim; ++j) {
      float v = normal(rng);
      d.x[i * dim + j] = v;
      z += static_cast<double>(v) * truth[j];
    }
    d.y[i] = z > 0 ? 1.0f : 0.0f;
  }
  return d;
}

Data load_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open '" + path + "'");
  Data d;
  d.name = path;
  std::string line;
  uint64_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;  // blank line or comment
    for (char& c : line)
      if (c == ',' || c == ';' || c == '\t') c = ' ';
    std::istringstream fields(line);
    std::vector<float> row;
    std::string field;
    while (fields >> field) {
      char* end = nullptr;
      float v = std::strtof(field.c_str(), &end);  // accepts nan and inf: checked below, with the place
      if (*end)
        throw std::runtime_error(path + ":" + std::to_string(line_no) + ": '" + field + "' is not a number");
      row.push_back(v);
    }
    if (row.size() < 2)
      throw std::runtime_error(path + ":" + std::to_string(line_no) +
                               ": a row needs at least one feature and a label");
    if (d.d == 0) d.d = row.size() - 1;
    if (row.size() - 1 != d.d)
      throw std::runtime_error(path + ":" + std::to_string(line_no) + ": " + std::to_string(row.size() - 1) +
                               " features, but earlier rows have " + std::to_string(d.d));
    d.y.push_back(row.back());
    row.pop_back();
    d.x.insert(d.x.end(), row.begin(), row.end());
    ++d.m;
  }
  return d;
}

void check_data(const Data& d) {
  if (d.m == 0) throw std::runtime_error(d.name + ": m = 0, there are no samples");
  if (d.d == 0) throw std::runtime_error(d.name + ": d = 0, there are no features");
  for (uint64_t i = 0; i < d.m; ++i) {
    for (uint64_t j = 0; j < d.d; ++j)
      if (!std::isfinite(d.x[i * d.d + j]))
        throw std::runtime_error(d.name + ": X[" + std::to_string(i) + "][" + std::to_string(j) + "] is " +
                                 std::to_string(d.x[i * d.d + j]) + "; every feature must be finite");
    if (!std::isfinite(d.y[i]))
      throw std::runtime_error(d.name + ": y[" + std::to_string(i) + "] is " + std::to_string(d.y[i]) +
                               "; every label must be finite");
    if (d.y[i] < 0 || d.y[i] > 1)
      throw std::runtime_error(d.name + ": y[" + std::to_string(i) + "] is " + std::to_string(d.y[i]) +
                               "; labels must lie in [0, 1]");
  }
}

}  // namespace logreg_tool
