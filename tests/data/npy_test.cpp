#include "porta_data/npy.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>
#include <vector>

#include "error_of.hpp"

using namespace porta::data;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

// An NPY version 1 file as numpy.save writes it: the header padded with
// blanks to a multiple of 64 bytes, ending in a line break.
std::string npy(const std::string& descr, bool fortran, const std::string& shape,
                const std::string& elements) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                     ", 'shape': " + shape + ", }";
  while ((10 + dict.size() + 1) % 64) dict += ' ';
  dict += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + elements;
}

template <class T>
std::string raw(std::initializer_list<T> values) {
  std::string s;
  for (T v : values) s.append(reinterpret_cast<const char*>(&v), sizeof v);
  return s;
}

std::filesystem::path temp(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("porta-data-test-" + std::to_string(getpid()) + "-" + name);
}

void write(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

}  // namespace

TEST(Npy, Float32LabelLast) {
  const std::string bytes = npy("<f4", false, "(2, 3)", raw<float>({1, 2, 0, 3, 4, 1}));
  Table t = parse_npy(bytes, "t.npy", true);
  EXPECT_EQ(t.rows, 2u);
  EXPECT_EQ(t.features, 2u);
  EXPECT_THAT(t.x, ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(t.y, ElementsAre(0, 1));
  NpyFile f(bytes, "t.npy");
  ASSERT_NE(f.mapped_f32(), nullptr);
  EXPECT_EQ(f.mapped_f32()[3], 3.0f);
}

TEST(Npy, Float64FortranOrderAndRowRanges) {
  // Column-major: the column (1, 3, 5) first, then (2, 4, 6).
  const std::string bytes = npy("<f8", true, "(3, 2)", raw<double>({1, 3, 5, 2, 4, 6}));
  NpyFile f(bytes, "t.npy");
  EXPECT_EQ(f.mapped_f32(), nullptr);
  float rows[4];
  f.read_rows(1, 2, rows);
  EXPECT_THAT(rows, ElementsAre(3, 4, 5, 6));
  EXPECT_THAT(error_of([&] { f.read_rows(2, 2, rows); }),
              HasSubstr("rows 2 to 4 asked for; the array has 3"));
}

TEST(Npy, FeaturesAndLabelsFiles) {
  const auto x = temp("x.npy"), y = temp("y.npy"), y_short = temp("y_short.npy"), y_bad = temp("y_bad.npy");
  write(x, npy("<f4", false, "(3, 1)", raw<float>({1, 2, 3})));
  write(y, npy("<i8", false, "(3,)", raw<int64_t>({0, 1, 1})));
  write(y_short, npy("|b1", false, "(2,)", std::string("\x01\x00", 2)));
  write(y_bad, npy("<i8", false, "(3,)", raw<int64_t>({0, 2, 1})));
  Table t = read_npy(x, y, true);
  EXPECT_THAT(t.x, ElementsAre(1, 2, 3));
  EXPECT_THAT(t.y, ElementsAre(0, 1, 1));
  EXPECT_THAT(error_of([&] { read_npy(x, y_short, true); }), HasSubstr("2 labels for 3 rows of"));
  EXPECT_THAT(error_of([&] { read_npy(x, y_bad, true); }),
              HasSubstr("row 1: the label is 2.000000; expected 0 or 1"));
  for (const auto& p : {x, y, y_short, y_bad}) std::filesystem::remove(p);
}

TEST(Npy, IntegerFeatures) {
  Table t = parse_npy(npy("<i2", false, "(2, 2)", raw<int16_t>({-5, 1, 7, 0})), "t.npy", true);
  EXPECT_THAT(t.x, ElementsAre(-5, 7));
  EXPECT_THAT(t.y, ElementsAre(1, 0));
}

TEST(Npy, BadFilesAreRefusedSayingWhy) {
  EXPECT_THAT(error_of([] { parse_npy("", "t.npy", true); }),
              HasSubstr("t.npy: is empty; expected an NPY file"));
  EXPECT_THAT(error_of([] { parse_npy("1,2,3\n4,5,6\n", "t.npy", true); }),
              HasSubstr("does not start with \\x93NUMPY"));
  EXPECT_THAT(error_of([] {
                parse_npy(npy("<f4", false, "(2, 2)", raw<float>({1, 2, 3})), "t.npy", true);
              }),
              HasSubstr("holds 12 bytes of elements but the shape (2, 2) of '<f4' needs 16 (truncated?)"));
  EXPECT_THAT(error_of([] {
                parse_npy(npy("<f4", false, "(1, 2)", raw<float>({1, 0, 3})), "t.npy", true);
              }),
              HasSubstr("(trailing bytes?)"));
  EXPECT_THAT(error_of([] {
                parse_npy(npy(">f4", false, "(1, 2)", raw<float>({1, 0})), "t.npy", true);
              }),
              HasSubstr("is big-endian; expected little-endian"));
  EXPECT_THAT(error_of([] {
                parse_npy(npy("<c8", false, "(1, 1)", raw<float>({1, 0})), "t.npy", true);
              }),
              HasSubstr("NPY dtype '<c8' is not supported"));
  EXPECT_THAT(error_of([] {
                parse_npy(npy("<f4", false, "(1, 1, 2)", raw<float>({1, 0})), "t.npy", true);
              }),
              HasSubstr("the array's shape is (1, 1, 2); expected 1 or 2 dimensions"));
  EXPECT_THAT(error_of([] { parse_npy(npy("<f4", false, "(0, 2)", ""), "t.npy", true); }),
              HasSubstr("0 rows"));
  EXPECT_THAT(error_of([] {
                parse_npy(npy("<f4", false, "(3,)", raw<float>({1, 0, 1})), "t.npy", true);
              }),
              HasSubstr("a 1-D array holds no label column"));
  EXPECT_THAT(error_of([] {
                parse_npy(npy("<f4", false, "(2, 2)", raw<float>({1, 0, NAN, 1})), "t.npy", true);
              }),
              HasSubstr("t.npy: row 1, column 0: nan is not finite; expected a finite number"));
  EXPECT_THAT(error_of([] {
                parse_npy(npy("<f8", false, "(1, 2)", raw<double>({1e300, 0})), "t.npy", true);
              }),
              HasSubstr("row 0, column 0: "));
  std::string broken = npy("<f4", false, "(1, 2)", raw<float>({1, 0}));
  broken[20] = '!';  // inside the dictionary
  EXPECT_THAT(error_of([&] { parse_npy(broken, "t.npy", true); }), HasSubstr("NPY header, byte"));
}

TEST(Npy, AFileThatChangesWhileReadIsRefused) {
  const auto p = temp("changing.npy");
  write(p, npy("<f4", false, "(2, 2)", raw<float>({1, 0, 2, 1})));
  NpyFile f(p.string());
  // Rewritten in place (same size, later time), as a writer still at work would.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  {
    std::fstream out(p, std::ios::in | std::ios::out | std::ios::binary);
    out.seekp(-4, std::ios::end);
    const float v = 0;
    out.write(reinterpret_cast<const char*>(&v), 4);
  }
  float rows[4];
  EXPECT_THAT(error_of([&] { f.read_rows(0, 2, rows); }), HasSubstr("changed while it was being read"));
  std::filesystem::remove(p);
}

// float32 in C order read in place: read_table's values and labels, the
// features in the file's mapping, the file unchanged although the label
// column was split out of the mapped rows; read_table's refusals; anything
// else left to read_table.
TEST(Npy, Float32ReadInPlace) {
  const auto a = temp("in_place.npy"), x = temp("in_place_x.npy"), y = temp("in_place_y.npy");
  const std::string bytes = npy("<f4", false, "(3, 3)", raw<float>({1.5f, 0, 1, 3, 1, 0, 5, 0, 0}));
  write(a, bytes);
  write(x, npy("<f4", false, "(3, 1)", raw<float>({1, 2, 3})));
  write(y, npy("<i8", false, "(3,)", raw<int64_t>({0, 1, 1})));
  for (const std::string label : {"", "1"}) {
    std::optional<NpyInPlace> t = read_npy_in_place(a, "", label);
    ASSERT_TRUE(t) << label;
    ReadOptions o;
    o.label = label;
    const Table want = read_table(a, o);
    EXPECT_TRUE(t->x.mapped());
    EXPECT_EQ(t->rows, want.rows);
    EXPECT_EQ(t->features, want.features);
    EXPECT_TRUE(std::equal(t->x.begin(), t->x.end(), want.x.begin(), want.x.end())) << label;
    EXPECT_EQ(t->y, want.y) << label;
  }
  std::ifstream in(a, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), bytes);
  std::optional<NpyInPlace> t = read_npy_in_place(x, y);
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->x.mapped());
  EXPECT_THAT(std::vector<float>(t->x.begin(), t->x.end()), ElementsAre(1, 2, 3));
  EXPECT_THAT(t->y, ElementsAre(0, 1, 1));
  // A copy holds its own values.
  Floats copy = t->x;
  EXPECT_FALSE(copy.mapped());
  EXPECT_EQ(copy, t->x);
  const auto nan = temp("in_place_nan.npy"), label = temp("in_place_label.npy"), f64 = temp("in_place64.npy");
  write(nan, npy("<f4", false, "(2, 2)", raw<float>({1, 0, std::nanf(""), 1})));
  write(label, npy("<f4", false, "(2, 2)", raw<float>({1, 0, 2, 3})));
  write(f64, npy("<f8", false, "(2, 2)", raw<double>({1, 0, 2, 1})));
  for (const auto& bad : {nan, label})
    EXPECT_EQ(error_of([&] { read_npy_in_place(bad, ""); }), error_of([&] { read_table(bad, {}); }));
  EXPECT_THAT(error_of([&] { read_npy_in_place(a, "", "3"); }), HasSubstr("label column 3 does not exist"));
  EXPECT_FALSE(read_npy_in_place(f64, ""));
  for (const auto& p : {a, x, y, nan, label, f64}) std::filesystem::remove(p);
}
