// porta_data/rows.hpp: a file read a range of rows at a time gives the rows
// read_table gives, bit for bit, in any ranges; the first pass refuses what
// read_table refuses, with the same message; a file that changes after the
// first pass is refused when read, not read half old, half new.
#include "porta_data/rows.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "error_of.hpp"

using namespace porta::data;
using ::testing::HasSubstr;

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("porta-rows-" + std::to_string(getpid()) + "-" + name))
      .string();
}

std::string write(const std::string& name, const std::string& bytes) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// A float32 C-order NPY array of rows x cols (cols 0: 1-D).
std::string npy(const std::vector<float>& values, uint64_t rows, uint64_t cols) {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(rows) +
                     (cols ? ", " + std::to_string(cols) : std::string(",")) + "), }";
  while ((10 + dict.size() + 1) % 64) dict += ' ';
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  const uint16_t len = static_cast<uint16_t>(dict.size());
  out.append(reinterpret_cast<const char*>(&len), 2);
  out += dict;
  out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  return out;
}

// Every row of `path` through RowFile in ranges of varying size equals read_table's.
void expect_same_rows(const std::string& path, const ReadOptions& options) {
  const Table whole = read_table(path, options);
  const RowFile rows(path, options);
  ASSERT_EQ(rows.rows(), whole.rows);
  ASSERT_EQ(rows.features(), whole.features);
  EXPECT_EQ(rows.feature_names(), whole.feature_names);
  std::mt19937_64 rng(5);
  for (uint64_t first = 0; first < whole.rows;) {
    const uint64_t count = std::min<uint64_t>(1 + rng() % 37, whole.rows - first);
    std::vector<float> x(count * whole.features), y(count);
    rows.read(first, count, x.data(), y.data());
    for (uint64_t k = 0; k < count * whole.features; ++k)
      ASSERT_EQ(std::memcmp(&x[k], &whole.x[first * whole.features + k], 4), 0) << path << " value " << k;
    for (uint64_t k = 0; k < count; ++k)
      ASSERT_EQ(y[k], whole.y[first + k]) << path << " label " << first + k;
    first += count;
  }
}

TEST(Rows, CsvRangesEqualTheWholeFile) {
  std::string csv = "# a comment\nid;\"the label\";b\n";
  for (int i = 0; i < 300; ++i) {
    csv += std::to_string(i * 0.25) + ";" + std::to_string(i % 2) + ";\"" + std::to_string(-i) + "\"\r\n";
    if (i % 50 == 7) csv += "\n# between rows\n";
  }
  ReadOptions o;
  o.label = "the label";
  expect_same_rows(write("a.csv", csv), o);
  std::filesystem::remove(temp_path("a.csv"));
}

TEST(Rows, LibsvmRangesEqualTheWholeFile) {
  std::string svm;
  for (int i = 0; i < 300; ++i)
    svm += (i % 3 ? "+1" : "-1") + std::string(" 2:") + std::to_string(i) + (i % 5 ? " 7:0.5" : "") +
           " # row\n" + (i % 40 == 0 ? "\n" : "");
  expect_same_rows(write("a.svm", svm), {});
  ReadOptions wide;
  wide.features = 9;
  expect_same_rows(temp_path("a.svm"), wide);
  std::filesystem::remove(temp_path("a.svm"));
}

TEST(Rows, NpyRangesEqualTheWholeFile) {
  const uint64_t rows = 5000, cols = 4;  // more than one block of the first pass
  std::vector<float> v(rows * cols), x(rows * (cols - 1)), y(rows);
  for (uint64_t i = 0; i < rows; ++i)
    for (uint64_t j = 0; j < cols; ++j) {
      v[i * cols + j] = j + 1 == cols ? static_cast<float>(i % 2) : static_cast<float>(i) * 0.5f - j;
      if (j + 1 < cols) x[i * (cols - 1) + j] = v[i * cols + j];
    }
  for (uint64_t i = 0; i < rows; ++i) y[i] = v[i * cols + cols - 1];
  expect_same_rows(write("a.npy", npy(v, rows, cols)), {});
  ReadOptions labels;
  labels.labels_path = write("y.npy", npy(y, rows, 0));
  expect_same_rows(write("x.npy", npy(x, rows, cols - 1)), labels);
  for (const char* f : {"a.npy", "x.npy", "y.npy"}) std::filesystem::remove(temp_path(f));
}

// The first pass refuses as read_table does, naming the same place.
TEST(Rows, TheFirstPassRefusesWhatReadTableRefuses) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"bad.csv", "a,b\n1,0\n2,x\n"},      {"label.csv", "1,0\n2,3\n"},       {"short.csv", "1,2,0\n3,1\n"},
      {"empty.csv", "# only a comment\n"}, {"bad.svm", "1 1:2\n0 3:1 2:4\n"}, {"label.svm", "1 1:2\n2 1:1\n"},
  };
  for (const auto& [name, text] : bad) {
    const std::string path = write(name, text);
    const std::string want = error_of([&] { read_table(path, {}); });
    ASSERT_NE(want, "") << name;
    EXPECT_EQ(error_of([&] { RowFile(path, {}); }), want) << name;
    std::filesystem::remove(path);
  }
  std::vector<float> v = {1, 0, 2, 5};  // a label 5 on row 1
  const std::string path = write("label.npy", npy(v, 2, 2));
  EXPECT_THAT(error_of([&] { RowFile(path, {}); }), HasSubstr("row 1, column 1: the label is 5"));
  std::filesystem::remove(path);
}

// Written in place after the first pass (not replaced by rename): refused.
TEST(Rows, AFileThatChangesWhileBeingReadIsRefused) {
  for (const char* name : {"change.csv", "change.svm"}) {
    const bool csv = std::string(name).ends_with(".csv");
    const std::string row = csv ? "1.5,0\n" : "0 1:1.5\n";
    std::string text;
    for (int i = 0; i < 100; ++i) text += row;
    const std::string path = write(name, text);
    const RowFile rows(path, {});
    std::vector<float> x(10), y(10);
    rows.read(0, 10, x.data(), y.data());
    std::ofstream(path, std::ios::binary | std::ios::app) << row;
    EXPECT_THAT(error_of([&] { rows.read(10, 10, x.data(), y.data()); }),
                HasSubstr("changed while it was being read"))
        << name;
    std::filesystem::remove(path);
  }
}

}  // namespace
