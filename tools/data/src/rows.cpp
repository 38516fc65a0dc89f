#include "porta_data/rows.hpp"

#include <algorithm>
#include <cstring>

namespace porta::data {

namespace {

// Rows checked a block at a time in the first pass over an NPY file.
constexpr uint64_t kBlockRows = 4096;

// A LIBSVM value in the row cache: its 0-based feature and the value.
struct CachedValue {
  uint32_t feature;
  float value;
};

}  // namespace

RowFile::RowFile(const std::string& path, const ReadOptions& options, const RowCacheOptions& cache,
                 const ChoosePart& part)
    : path_(path), options_(options), format_(options.format ? *options.format : format_of_path(path)) {
  options_.labels = ReadOptions::Labels::yes;
  if (!options.labels_path.empty() && format_ != Format::npy)
    fail(options.labels_path, 0, 0,
         "a labels file goes with NPY features only; this data file is " + std::string(format_name(format_)));
  switch (format_) {
    case Format::csv: {
      text_ = MappedFile(path);
      cache_ = std::make_unique<RowCache>(cache, path);
      bool first = true;
      auto check = [&](Grid& row) {
        Table t = split_grid(row, options_);
        if (first) {
          features_ = t.features;
          names_ = std::move(t.feature_names);
          first = false;
        }
        if (cache_->append(t.x.data(), t.x.size() * sizeof(float))) labels_.push_back(t.y[0]);
      };
      if (part) {
        csv_ = locate_csv(text_.bytes(), path, options.header);
        choose(part, csv_.rows());
        check_csv_rows(text_.bytes(), path, csv_, first_, count_, check);
      } else {
        csv_ = index_csv(text_.bytes(), path, options.header, check);
        choose(part, csv_.rows());
      }
      rows_ = csv_.rows();
      break;
    }
    case Format::libsvm: {
      text_ = MappedFile(path);
      cache_ = std::make_unique<RowCache>(cache, path);
      LibsvmOptions o;
      o.features = options.features;
      std::vector<CachedValue> values;
      uint64_t count = 0;
      auto each = [&](float label, const std::vector<LibsvmValue>& row) {
        values.clear();
        for (const LibsvmValue& v : row) {
          // Features past 2^32 (a dense row of 16 GiB) are read from the text.
          if (v.index > uint64_t{UINT32_MAX} + 1) cache_->abandon();
          values.push_back({static_cast<uint32_t>(v.index - 1), v.value});
        }
        if (!cache_->append(values.data(), values.size() * sizeof(CachedValue))) return;
        entries_.push_back(count);
        count += values.size();
        labels_.push_back(label);
      };
      if (part) {
        libsvm_ = locate_libsvm(text_.bytes(), path);
        choose(part, libsvm_.rows());
        check_libsvm_rows(text_.bytes(), path, o, libsvm_, first_, count_, each);
      } else {
        libsvm_ = index_libsvm(text_.bytes(), path, o, each);
        choose(part, libsvm_.rows());
      }
      entries_.push_back(count);
      rows_ = libsvm_.rows();
      features_ = libsvm_.features;
      break;
    }
    case Format::npy: {
      npy_ = std::make_unique<NpyFile>(path);
      if (npy_->header().shape.size() != 2)
        fail(path, 0, 0,
             options.labels_path.empty()
                 ? "a 1-D array holds no label column; expected rows x (features + label), or --labels FILE"
                 : "the features are a 1-D array; expected rows x features (2-D), e.g. x.reshape(-1, 1)");
      rows_ = npy_->rows();
      features_ = npy_->cols() - (options.labels_path.empty() ? 1 : 0);
      if (!options.labels_path.empty()) {
        npy_labels_ = std::make_unique<NpyFile>(options.labels_path);
        check_labels_file(*npy_, *npy_labels_);
      }
      // float32 in C order is read from its mapping; anything else (float64,
      // integers, Fortran order) is converted once, by this pass, into the
      // row cache, rather than on every pass.
      if (!npy_->mapped_f32()) cache_ = std::make_unique<RowCache>(cache, path);
      choose(part, rows_);
      // Every value and label checked before anything is trained.
      std::vector<float> x, y;
      for (uint64_t first = first_; first < first_ + count_; first += kBlockRows) {
        const uint64_t count = std::min(kBlockRows, first_ + count_ - first);
        x.resize(count * features_);
        y.resize(count);
        read_source(first, count, x.data(), y.data());
        if (cache_ && cache_->append(x.data(), x.size() * sizeof(float)))
          labels_.insert(labels_.end(), y.begin(), y.end());
      }
      checked_ = true;
      break;
    }
  }
  text_.check_unchanged();
  if (cache_ && cache_->finish()) {
    // Every row is in the cache: the file and where its rows begin are no longer needed.
    text_ = MappedFile();
    npy_.reset();
    npy_labels_.reset();
    csv_.offsets = csv_.lines = {};
    libsvm_.offsets = libsvm_.lines = {};
  } else {
    cache_.reset();
    labels_ = {};
    entries_ = {};
  }
}

void RowFile::choose(const ChoosePart& part, uint64_t rows) {
  const RowRange range = part ? part(rows) : RowRange{0, rows};
  if (range.first > rows || range.count > rows - range.first)
    fail(path_, 0, 0,
         "the part of rows " + std::to_string(range.first) + " to " +
             std::to_string(range.first + range.count) + " chosen; the file has " + std::to_string(rows));
  first_ = range.first;
  count_ = range.count;
}

void RowFile::widen(uint64_t features) {
  if (features == features_) return;
  if (format_ != Format::libsvm || options_.features || features < features_)
    fail(path_, 0, 0,
         "rows of " + std::to_string(features_) + " features cannot be read as " + std::to_string(features));
  features_ = libsvm_.features = features;
}

void RowFile::take(Grid grid, float* x, float* y) const {
  const uint64_t count = grid.rows;
  const Table t = split_grid(std::move(grid), options_);
  std::copy(t.x.begin(), t.x.end(), x);
  std::copy(t.y.begin(), t.y.begin() + static_cast<ptrdiff_t>(count), y);
}

void RowFile::read_cached(uint64_t first, uint64_t count, float* x, float* y) const {
  first -= first_;  // the cache holds the part's rows
  std::copy(labels_.begin() + static_cast<ptrdiff_t>(first),
            labels_.begin() + static_cast<ptrdiff_t>(first + count), y);
  if (format_ != Format::libsvm) {  // dense rows
    if (count && features_)         // an empty cache has no bytes to copy from
      std::memcpy(x, cache_->bytes() + first * features_ * sizeof(float), count * features_ * sizeof(float));
    return;
  }
  const auto* values = reinterpret_cast<const CachedValue*>(cache_->bytes());
  std::fill(x, x + count * features_, 0.0f);
  for (uint64_t i = 0; i < count; ++i)
    for (uint64_t k = entries_[first + i]; k < entries_[first + i + 1]; ++k)
      x[i * features_ + values[k].feature] = values[k].value;
}

void RowFile::read(uint64_t first, uint64_t count, float* x, float* y) const {
  if (first < first_ || first > first_ + count_ || count > first_ + count_ - first)
    fail(path_, 0, 0,
         "rows " + std::to_string(first) + " to " + std::to_string(first + count) + " asked for; " +
             (count_ == rows_ ? "the file has " + std::to_string(rows_)
                              : "this process reads rows " + std::to_string(first_) + " to " +
                                    std::to_string(first_ + count_) + " of " + std::to_string(rows_)));
  if (cache_)
    read_cached(first, count, x, y);
  else
    read_source(first, count, x, y);
}

void RowFile::read_source(uint64_t first, uint64_t count, float* x, float* y) const {
  switch (format_) {
    case Format::csv:
      take(parse_csv_rows(text_.bytes(), path_, csv_, first, count), x, y);
      break;
    case Format::libsvm:
      parse_libsvm_rows(text_.bytes(), path_, libsvm_, first, count, x, y);
      break;
    case Format::npy:
      if (checked_ && npy_->mapped_f32()) {
        // float32 in C order, every value checked by the first pass: copied, not converted.
        const uint64_t cols = npy_->cols();
        const float* rows = npy_->mapped_f32() + first * cols;
        for (uint64_t i = 0; i < count; ++i)
          std::memcpy(x + i * features_, rows + i * cols, features_ * sizeof(float));
        if (npy_labels_)
          npy_labels_->read_rows(first, count, y);
        else
          for (uint64_t i = 0; i < count; ++i) y[i] = rows[i * cols + features_];
        npy_->check_unchanged();
      } else if (npy_labels_) {
        npy_->read_rows(first, count, x);
        npy_labels_->read_rows(first, count, y);
        check_labels(*npy_labels_, first, count, y);
      } else {
        Grid g;
        g.file = path_;
        g.rows = count;
        g.cols = npy_->cols();
        g.first_row = first;
        g.values.resize(count * g.cols);
        npy_->read_rows(first, count, g.values.data());
        take(std::move(g), x, y);
      }
      break;
  }
  // After the parse: a change while it ran is caught too.
  text_.check_unchanged();
}

}  // namespace porta::data
