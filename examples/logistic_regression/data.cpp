#include "data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>

#include "porta_data/npy.hpp"

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

Data load(const std::string& path, const porta::data::ReadOptions& options) {
  const porta::data::Format format = options.format ? *options.format : porta::data::format_of_path(path);
  if (format == porta::data::Format::npy && options.labels == porta::data::ReadOptions::Labels::yes)
    if (std::optional<porta::data::NpyInPlace> t =
            porta::data::read_npy_in_place(path, options.labels_path, options.label)) {
      Data d;
      d.name = path;
      d.m = t->rows;
      d.d = t->features;
      d.x = std::move(t->x);
      d.y = std::move(t->y);
      return d;
    }
  porta::data::Table t = porta::data::read_table(path, options);
  Data d;
  d.name = path;
  d.m = t.rows;
  d.d = t.features;
  d.x = std::move(t.x);
  d.y = std::move(t.y);
  d.feature_names = std::move(t.feature_names);
  return d;
}

namespace {

// Which of m rows split() holds out: a `fraction` of them (at least one, and
// at least one left to train on), the first places of a permutation seeded
// with `seed`. Empty: none.
std::vector<bool> held_out(uint64_t m, double fraction, uint64_t seed, const std::string& name) {
  uint64_t held = static_cast<uint64_t>(std::llround(fraction * static_cast<double>(m)));
  if (fraction > 0) held = std::clamp<uint64_t>(held, 1, m > 1 ? m - 1 : 1);
  if (held == 0) return {};
  if (held >= m)
    throw std::runtime_error(name + ": " + std::to_string(m) +
                             " rows cannot be split into training and test rows; expected at least 2");
  std::vector<uint64_t> order(m);
  for (uint64_t i = 0; i < m; ++i) order[i] = i;
  std::mt19937_64 rng(seed);
  for (uint64_t i = m - 1; i > 0; --i) std::swap(order[i], order[rng() % (i + 1)]);
  std::vector<bool> is_test(m, false);
  for (uint64_t k = 0; k < held; ++k) is_test[order[k]] = true;
  return is_test;
}

}  // namespace

Data open_rows(const std::string& path, const porta::data::ReadOptions& options,
               const porta::data::RowCacheOptions& cache, const Share& share) {
  porta::data::ChoosePart part;
  if (share.size > 1)
    // The rank's share of the training rows, as train_parallel takes it, and
    // the held-out rows from its first training row to the next rank's.
    part = [&](uint64_t m) {
      const std::vector<bool> test = held_out(m, share.test_fraction, share.seed, path);
      uint64_t training = m;
      for (bool t : test) training -= t;
      const auto rank = static_cast<uint64_t>(share.rank), size = static_cast<uint64_t>(share.size);
      const uint64_t from = training * rank / size, to = training * (rank + 1) / size;
      // The file row of training row k (m past the last).
      auto file_row = [&](uint64_t k) {
        for (uint64_t i = 0; i < m; ++i)
          if (test.empty() || !test[i]) {
            if (k == 0) return i;
            --k;
          }
        return m;
      };
      const uint64_t first = rank == 0 ? 0 : file_row(from), end = rank + 1 == size ? m : file_row(to);
      return porta::data::RowRange{first, end - first};
    };
  auto file = std::make_shared<porta::data::RowFile>(path, options, cache, part);
  // LIBSVM: the feature count is the largest index of every rank's rows.
  if (share.max) file->widen(share.max(file->features()));
  Data d;
  d.name = path;
  d.m = file->rows();
  d.d = file->features();
  d.feature_names = file->feature_names();
  d.file_rows = std::make_shared<FileRows>();
  d.file_rows->own_first = file->part().first;
  d.file_rows->own_count = file->part().count;
  d.file_rows->sum = share.sum;
  d.file_rows->file = std::move(file);
  return d;
}

void sum_over_processes(const Data& data, double* values, int count) {
  if (data.streamed() && data.file_rows->sum) data.file_rows->sum(values, count);
}

void FileRows::read(uint64_t first, uint64_t count, float* x, float* y) const {
  const uint64_t d = file->features();
  if (rows.empty()) {
    file->read(first, count, x, y);
  } else {
    // Runs of consecutive file rows, each read at once.
    for (uint64_t i = 0; i < count;) {
      uint64_t run = 1;
      while (i + run < count && rows[first + i + run] == rows[first + i] + run) ++run;
      file->read(rows[first + i], run, x + i * d, y + i);
      i += run;
    }
  }
  if (mean.empty()) return;
  for (uint64_t i = 0; i < count; ++i)
    for (uint64_t j = 0; j < d; ++j) {
      float& v = x[i * d + j];
      v = (v - mean[j]) / std[j];
    }
}

void for_each_rows(
    const Data& data,
    const std::function<void(const float* x, const float* y, uint64_t first, uint64_t count)>& fn,
    uint64_t chunk) {
  if (!data.streamed()) {
    fn(data.x.data(), data.y.empty() ? nullptr : data.y.data(), 0, data.m);
    return;
  }
  std::vector<float> x, y;
  const uint64_t end = data.file_rows->own_first + data.file_rows->own_count;
  for (uint64_t first = data.file_rows->own_first; first < end; first += chunk) {
    const uint64_t count = std::min(chunk, end - first);
    x.resize(count * data.d);
    y.resize(count);
    data.file_rows->read(first, count, x.data(), y.data());
    fn(x.data(), y.data(), first, count);
  }
}

Data in_memory(const Data& data) {
  if (!data.streamed()) return data;
  Data copy = data;
  copy.file_rows = nullptr;
  copy.x.resize(data.m * data.d);
  copy.y.resize(data.m);
  data.file_rows->read(0, data.m, copy.x.data(), copy.y.data());
  return copy;
}

void check_data(const Data& d) {
  if (d.streamed()) return;  // the first pass over the file checked every value and label
  if (d.m == 0) throw std::runtime_error(d.name + ": m = 0, there are no samples");
  if (d.d == 0) throw std::runtime_error(d.name + ": d = 0, there are no features");
  for (uint64_t i = 0; i < d.m; ++i) {
    for (uint64_t j = 0; j < d.d; ++j)
      if (!std::isfinite(d.x[i * d.d + j]))
        throw std::runtime_error(d.name + ": X[" + std::to_string(i) + "][" + std::to_string(j) + "] is " +
                                 std::to_string(d.x[i * d.d + j]) + "; every feature must be finite");
    if (d.y.empty()) continue;  // rows to predict
    if (!std::isfinite(d.y[i]))
      throw std::runtime_error(d.name + ": y[" + std::to_string(i) + "] is " + std::to_string(d.y[i]) +
                               "; every label must be finite");
    if (d.y[i] < 0 || d.y[i] > 1)
      throw std::runtime_error(d.name + ": y[" + std::to_string(i) + "] is " + std::to_string(d.y[i]) +
                               "; labels must lie in [0, 1]");
  }
}

Split split(Data data, double fraction, uint64_t seed) {
  Split s;
  const std::vector<bool> is_test = held_out(data.m, fraction, seed, data.name);
  if (is_test.empty()) {
    // No test rows: the data train as they are (gigabytes are not copied).
    s.test.d = data.d;
    s.test.feature_names = data.feature_names;
    s.test.name = data.name + " (test rows)";
    s.train = std::move(data);
    return s;
  }
  for (Data* part : {&s.train, &s.test}) {
    part->d = data.d;
    part->feature_names = data.feature_names;
    if (data.streamed()) {
      part->file_rows = std::make_shared<FileRows>();
      part->file_rows->file = data.file_rows->file;
      part->file_rows->sum = data.file_rows->sum;
    }
  }
  s.train.name = data.name + " (training rows)";
  s.test.name = data.name + " (test rows)";
  for (uint64_t i = 0; i < data.m; ++i) {
    Data& part = is_test[i] ? s.test : s.train;
    if (data.streamed()) {
      // This process's own rows of the part are those of its own rows of the data.
      FileRows& rows = *part.file_rows;
      const FileRows& from = *data.file_rows;
      rows.own_first += i < from.own_first;
      rows.own_count += i >= from.own_first && i < from.own_first + from.own_count;
      rows.rows.push_back(from.rows.empty() ? i : from.rows[i]);
    } else {
      part.x.append(data.x.begin() + i * data.d, data.x.begin() + (i + 1) * data.d);
      if (!data.y.empty()) part.y.push_back(data.y[i]);
    }
    ++part.m;
  }
  if (!s.test.m) s.test.file_rows = nullptr;
  return s;
}

Standardization Standardization::fit(const Data& data) {
  Standardization s;
  // Per feature, the rows in order: the same sums whether the rows come in
  // one range or many.
  std::vector<double> sum(data.d, 0.0), squares(data.d, 0.0), mean(data.d, 0.0);
  for_each_rows(data, [&](const float* x, const float*, uint64_t, uint64_t count) {
    for (uint64_t j = 0; j < data.d; ++j)
      for (uint64_t i = 0; i < count; ++i) sum[j] += x[i * data.d + j];
  });
  sum_over_processes(data, sum.data(), static_cast<int>(data.d));
  for (uint64_t j = 0; j < data.d; ++j) mean[j] = sum[j] / static_cast<double>(data.m);
  for_each_rows(data, [&](const float* x, const float*, uint64_t, uint64_t count) {
    for (uint64_t j = 0; j < data.d; ++j)
      for (uint64_t i = 0; i < count; ++i) {
        const double v = x[i * data.d + j] - mean[j];
        squares[j] += v * v;
      }
  });
  sum_over_processes(data, squares.data(), static_cast<int>(data.d));
  s.mean.assign(data.d, 0);
  s.std.assign(data.d, 1);
  for (uint64_t j = 0; j < data.d; ++j) {
    const double sd = std::sqrt(squares[j] / static_cast<double>(data.m));
    s.mean[j] = static_cast<float>(mean[j]);
    // A constant feature carries nothing; dividing by 1 keeps it at 0.
    s.std[j] = sd > 0 && std::isfinite(static_cast<float>(sd)) ? static_cast<float>(sd) : 1.0f;
  }
  return s;
}

void Standardization::apply(Data& data) const {
  if (empty()) return;
  if (mean.size() != data.d)
    throw std::runtime_error(data.name + ": " + std::to_string(data.d) +
                             " features, but the standardisation has " + std::to_string(mean.size()));
  if (data.streamed()) {
    data.file_rows->mean = mean;
    data.file_rows->std = std;
    return;
  }
  for (uint64_t i = 0; i < data.m; ++i)
    for (uint64_t j = 0; j < data.d; ++j) {
      float& v = data.x[i * data.d + j];
      v = (v - mean[j]) / std[j];
    }
}

}  // namespace logreg_tool
