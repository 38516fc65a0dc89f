#include "porta_data/npy.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace porta::data {
namespace {

// The header's dictionary: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }
class DictParser {
 public:
  DictParser(std::string_view text, size_t offset, const std::string& file)
      : text_(text), offset_(offset), file_(file) {}

  void parse(NpyHeader& h) {
    bool descr = false, order = false, shape = false;
    expect('{');
    for (;;) {
      skip();
      if (peek() == '}') break;
      const std::string key = string();
      expect(':');
      skip();
      if (key == "descr") {
        h.descr = string();
        descr = true;
      } else if (key == "fortran_order") {
        h.fortran_order = boolean();
        order = true;
      } else if (key == "shape") {
        h.shape = tuple();
        shape = true;
      } else {
        error("unknown key '" + key + "'; expected descr, fortran_order and shape");
      }
      skip();
      if (peek() == ',') ++p_;
    }
    ++p_;
    if (!descr || !order || !shape) error("the header lacks descr, fortran_order or shape");
  }

 private:
  [[noreturn]] void error(const std::string& what) const {
    fail(file_, 0, 0, "NPY header, byte " + std::to_string(offset_ + p_) + ": " + what);
  }
  void skip() {
    while (p_ < text_.size() && (text_[p_] == ' ' || text_[p_] == '\n' || text_[p_] == '\t')) ++p_;
  }
  char peek() const { return p_ < text_.size() ? text_[p_] : '\0'; }
  void expect(char c) {
    skip();
    if (peek() != c) error(std::string("expected '") + c + "'");
    ++p_;
  }
  std::string string() {
    skip();
    const char quote = peek();
    if (quote != '\'' && quote != '"') error("expected a quoted string");
    const size_t start = ++p_;
    while (p_ < text_.size() && text_[p_] != quote) ++p_;
    if (p_ >= text_.size()) error("a string never ends");
    return std::string(text_.substr(start, p_++ - start));
  }
  bool boolean() {
    if (text_.substr(p_, 4) == "True") return p_ += 4, true;
    if (text_.substr(p_, 5) == "False") return p_ += 5, false;
    error("expected True or False");
  }
  std::vector<uint64_t> tuple() {
    expect('(');
    std::vector<uint64_t> dims;
    for (;;) {
      skip();
      if (peek() == ')') break;
      if (peek() < '0' || peek() > '9') error("expected a dimension (a whole number)");
      uint64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        if (v > (std::numeric_limits<uint64_t>::max() - 9) / 10) error("a dimension is too large");
        v = v * 10 + static_cast<uint64_t>(text_[p_++] - '0');
      }
      dims.push_back(v);
      skip();
      if (peek() == ',')
        ++p_;
      else if (peek() != ')')
        error("expected ',' or ')' in the shape");
    }
    ++p_;
    return dims;
  }

  std::string_view text_;
  size_t offset_, p_ = 0;
  const std::string& file_;
};

uint32_t little(std::string_view b, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

std::string shape_text(const std::vector<uint64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

double element(const char* p, char kind, size_t size) {
  switch (kind) {
    case 'f':
      if (size == 4) {
        float v;
        std::memcpy(&v, p, 4);
        return v;
      } else {
        double v;
        std::memcpy(&v, p, 8);
        return v;
      }
    case 'b':
      return *p ? 1.0 : 0.0;
    case 'u': {
      uint64_t v = 0;
      std::memcpy(&v, p, size);  // little-endian host, checked at build
      return static_cast<double>(v);
    }
    default: {  // 'i'
      int64_t v = 0;
      std::memcpy(&v, p, size);
      const int shift = static_cast<int>(64 - 8 * size);  // sign-extend
      return static_cast<double>(static_cast<int64_t>(static_cast<uint64_t>(v) << shift) >> shift);
    }
  }
}

// A value float32 holds: finite, within its range.
void check_element(const std::string& file, uint64_t i, uint64_t j, double v) {
  if (!std::isfinite(v) || std::fabs(v) > std::numeric_limits<float>::max())
    fail(file, 0, 0,
         "row " + std::to_string(i) + ", column " + std::to_string(j) + ": " + std::to_string(v) + " is " +
             (std::isfinite(v) ? "outside float32's range" : "not finite") + "; expected a finite number");
}

static_assert(std::endian::native == std::endian::little, "NPY reading assumes a little-endian host");

}  // namespace

NpyHeader parse_npy_header(std::string_view bytes, const std::string& file) {
  if (bytes.empty()) fail(file, 0, 0, "is empty; expected an NPY file");
  if (bytes.size() < 10 || bytes.substr(0, 6) != std::string_view("\x93NUMPY", 6))
    fail(file, 0, 0, "does not start with \\x93NUMPY; expected an NPY file (numpy.save)");
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t length = 0, offset = 0;
  if (major == 1) {
    length = little(bytes, 8, 2);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail(file, 0, 0, "ends inside the NPY preamble");
    length = little(bytes, 8, 4);
    offset = 12;
  } else {
    fail(file, 0, 0, "NPY version " + std::to_string(major) + "; expected 1, 2 or 3");
  }
  if (length > bytes.size() - offset)
    fail(file, 0, 0,
         "the NPY header claims " + std::to_string(length) + " bytes but the file has " +
             std::to_string(bytes.size() - offset) + " after the preamble");
  NpyHeader h;
  DictParser(bytes.substr(offset, length), offset, file).parse(h);
  h.data_offset = offset + length;

  const std::string& d = h.descr;
  if (d.size() < 3) fail(file, 0, 0, "NPY dtype '" + d + "' is not a plain number type");
  const char order = d[0];
  h.kind = d[1];
  h.item_size = 0;
  if (d.size() == 3 && d[2] >= '1' && d[2] <= '8') h.item_size = static_cast<size_t>(d[2] - '0');
  const bool known = (h.kind == 'f' && (h.item_size == 4 || h.item_size == 8)) ||
                     ((h.kind == 'i' || h.kind == 'u') &&
                      (h.item_size == 1 || h.item_size == 2 || h.item_size == 4 || h.item_size == 8)) ||
                     (h.kind == 'b' && h.item_size == 1);
  if (!known)
    fail(file, 0, 0,
         "NPY dtype '" + d +
             "' is not supported; expected float32 or float64 ('<f4', '<f8'), an integer or bool");
  if (order == '>' && h.item_size > 1)
    fail(file, 0, 0,
         "NPY dtype '" + d + "' is big-endian; expected little-endian ('<'): save it with astype('<" +
             d.substr(1) + "')");
  if (order != '<' && order != '|' && order != '=' && order != '>')
    fail(file, 0, 0, "NPY dtype '" + d + "' has no byte order; expected '<', '|' or '='");
  if (h.shape.empty() || h.shape.size() > 2)
    fail(file, 0, 0,
         "the array's shape is " + shape_text(h.shape) +
             "; expected 1 or 2 dimensions (rows, or rows x columns)");
  uint64_t elements = 1;
  for (uint64_t n : h.shape) {
    if (n && elements > std::numeric_limits<uint64_t>::max() / n / h.item_size)
      fail(file, 0, 0, "the shape " + shape_text(h.shape) + " is too large");
    elements *= n;
  }
  const uint64_t need = elements * h.item_size, have = bytes.size() - h.data_offset;
  if (need != have)
    fail(file, 0, 0,
         "holds " + std::to_string(have) + " bytes of elements but the shape " + shape_text(h.shape) +
             " of '" + d + "' needs " + std::to_string(need) +
             (have < need ? " (truncated?)" : " (trailing bytes?)"));
  if (h.rows() == 0) fail(file, 0, 0, "the array has 0 rows; expected at least one sample");
  if (h.cols() == 0) fail(file, 0, 0, "the array has 0 columns; expected at least one");
  return h;
}

NpyFile::NpyFile(const std::string& path) : file_(path), mapping_(path) {
  bytes_ = mapping_.bytes();
  header_ = parse_npy_header(bytes_, file_);
}

NpyFile::NpyFile(std::string_view bytes, const std::string& file) : file_(file), bytes_(bytes) {
  header_ = parse_npy_header(bytes_, file_);
}

void NpyFile::read_rows(uint64_t first, uint64_t count, float* out) const {
  const uint64_t rows = header_.rows(), cols = header_.cols();
  if (first > rows || count > rows - first)
    fail(file_, 0, 0,
         "rows " + std::to_string(first) + " to " + std::to_string(first + count) +
             " asked for; the array has " + std::to_string(rows));
  const char* base = bytes_.data() + header_.data_offset;
  const size_t size = header_.item_size;
  for (uint64_t i = first; i < first + count; ++i)
    for (uint64_t j = 0; j < cols; ++j) {
      const uint64_t at = header_.fortran_order ? j * rows + i : i * cols + j;
      const double v = element(base + at * size, header_.kind, size);
      check_element(file_, i, j, v);
      *out++ = static_cast<float>(v);
    }
  mapping_.check_unchanged();
}

const float* NpyFile::mapped_f32() const {
  if (header_.kind != 'f' || header_.item_size != 4 || header_.fortran_order) return nullptr;
  if (header_.data_offset % alignof(float)) return nullptr;
  return reinterpret_cast<const float*>(bytes_.data() + header_.data_offset);
}

Grid grid_of(const NpyFile& f) {
  Grid g;
  g.file = f.file();
  g.rows = f.rows();
  g.cols = f.cols();
  g.values.resize(g.rows * g.cols);
  f.read_rows(0, g.rows, g.values.data());
  return g;
}

void check_labels_file(const NpyFile& features, const NpyFile& labels) {
  if (features.header().shape.size() != 2)
    fail(features.file(), 0, 0,
         "the features are a 1-D array; expected rows x features (2-D), e.g. x.reshape(-1, 1)");
  if (labels.cols() != 1)
    fail(labels.file(), 0, 0,
         "the labels have " + std::to_string(labels.cols()) + " columns; expected one label a row");
  if (labels.rows() != features.rows())
    fail(labels.file(), 0, 0,
         std::to_string(labels.rows()) + " labels for " + std::to_string(features.rows()) + " rows of " +
             features.file() + "; expected one label a row");
}

void check_labels(const NpyFile& labels, uint64_t first, uint64_t count, const float* y) {
  for (uint64_t i = 0; i < count; ++i)
    if (!label_of(y[i], false))
      fail(labels.file(), 0, 0,
           "row " + std::to_string(first + i) + ": the label is " + std::to_string(y[i]) +
               "; expected 0 or 1");
}

namespace {

Table with_labels_file(const NpyFile& features, const NpyFile& labels) {
  check_labels_file(features, labels);
  Table t = without_label(grid_of(features));
  t.y.resize(t.rows);
  labels.read_rows(0, t.rows, t.y.data());
  check_labels(labels, 0, t.rows, t.y.data());
  return t;
}

}  // namespace

std::optional<NpyInPlace> read_npy_in_place(const std::string& features_path, const std::string& labels_path,
                                            const std::string& label) {
  MappedFile mapping(features_path, MappedFile::Access::copy_on_write);
  const NpyFile features(mapping.bytes(), features_path);
  const NpyHeader& h = features.header();
  if (!features.mapped_f32() || h.shape.size() != 2) return std::nullopt;
  float* values = reinterpret_cast<float*>(mapping.writable_bytes() + h.data_offset);
  NpyInPlace t;
  t.rows = h.rows();
  const uint64_t cols = h.cols();
  for (uint64_t i = 0; i < t.rows; ++i)
    for (uint64_t j = 0; j < cols; ++j) check_element(features_path, i, j, values[i * cols + j]);
  if (!labels_path.empty()) {
    const NpyFile labels(labels_path);
    check_labels_file(features, labels);
    t.y.resize(t.rows);
    labels.read_rows(0, t.rows, t.y.data());
    check_labels(labels, 0, t.rows, t.y.data());
    t.features = cols;
  } else {
    Grid grid;  // the rows' shape, for take_label's checks and messages
    grid.file = features_path;
    grid.rows = t.rows;
    grid.cols = cols;
    t.y = pull_labels(values, grid, label);
    t.features = cols - 1;
  }
  mapping.check_unchanged();
  t.x = Floats(std::move(mapping), values, t.rows * t.features);
  return t;
}

Table read_npy(const std::string& features_path, const std::string& labels_path, bool labels,
               const std::string& label) {
  NpyFile features(features_path);
  if (!labels_path.empty()) return with_labels_file(features, NpyFile(labels_path));
  if (labels && features.header().shape.size() != 2)
    fail(features_path, 0, 0,
         "a 1-D array holds no label column; expected rows x (features + label), or --labels FILE");
  return labels ? take_label(grid_of(features), label) : without_label(grid_of(features));
}

Table parse_npy(std::string_view bytes, const std::string& file, bool labels) {
  NpyFile features(bytes, file);
  if (labels && features.header().shape.size() != 2)
    fail(file, 0, 0, "a 1-D array holds no label column; expected rows x (features + label)");
  return labels ? take_label(grid_of(features), "") : without_label(grid_of(features));
}

}  // namespace porta::data
