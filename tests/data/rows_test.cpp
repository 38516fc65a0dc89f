// porta_data/rows.hpp: a file read a range of rows at a time gives the rows
// read_table gives, bit for bit, in any ranges, from its row cache in memory,
// in a file, or without one; the first pass refuses what read_table refuses,
// with the same message; a file that changes after the first pass is refused
// when read from the file, not read half old, half new, and cached rows stay
// the first pass's. A cache that cannot be written warns once and loses nothing.
#include "porta_data/rows.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
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

// An NPY array of rows x cols (cols 0: 1-D) of dtype `descr`, its elements
// `data` as they lie in the file (C or Fortran order).
std::string npy_of(const std::string& descr, bool fortran, const void* data, size_t bytes, uint64_t rows,
                   uint64_t cols) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                     ", 'shape': (" + std::to_string(rows) +
                     (cols ? ", " + std::to_string(cols) : std::string(",")) + "), }";
  while ((10 + dict.size() + 1) % 64) dict += ' ';
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  const uint16_t len = static_cast<uint16_t>(dict.size());
  out.append(reinterpret_cast<const char*>(&len), 2);
  out += dict;
  out.append(static_cast<const char*>(data), bytes);
  return out;
}

// A float32 C-order NPY array of rows x cols (cols 0: 1-D).
std::string npy(const std::vector<float>& values, uint64_t rows, uint64_t cols) {
  return npy_of("<f4", false, values.data(), values.size() * sizeof(float), rows, cols);
}

// The same values (row-major, rows x cols) as float64 in C order, and as
// float32 in Fortran order.
std::string npy_f64(const std::vector<float>& values, uint64_t rows, uint64_t cols) {
  const std::vector<double> wide(values.begin(), values.end());
  return npy_of("<f8", false, wide.data(), wide.size() * sizeof(double), rows, cols);
}
std::string npy_fortran(const std::vector<float>& values, uint64_t rows, uint64_t cols) {
  std::vector<float> by_column(values.size());
  for (uint64_t i = 0; i < rows; ++i)
    for (uint64_t j = 0; j < cols; ++j) by_column[j * rows + i] = values[i * cols + j];
  return npy_of("<f4", true, by_column.data(), by_column.size() * sizeof(float), rows, cols);
}

// The row cache's settings the tests read text files with.
enum class Cache { memory, file, off };

RowCacheOptions cache_options(Cache cache, std::vector<std::string>* warnings = nullptr) {
  RowCacheOptions o;
  o.enabled = cache != Cache::off;
  if (cache == Cache::file) o.memory_budget = 0;
  // Warnings are collected where the test expects them, else they fail it.
  o.warn = [warnings](const std::string& w) {
    if (warnings)
      warnings->push_back(w);
    else
      ADD_FAILURE() << "unexpected warning: " << w;
  };
  return o;
}

// Every row of `rows` in ranges of varying size equals `whole`'s.
void expect_rows_equal(const RowFile& rows, const Table& whole, const std::string& path) {
  ASSERT_EQ(rows.rows(), whole.rows);
  ASSERT_EQ(rows.features(), whole.features);
  EXPECT_EQ(rows.feature_names(), whole.feature_names);
  // A range of every row first, then ranges of varying size.
  std::vector<float> all_x(whole.x.size()), all_y(whole.rows);
  rows.read(0, whole.rows, all_x.data(), all_y.data());
  ASSERT_EQ(std::memcmp(all_x.data(), whole.x.data(), all_x.size() * sizeof(float)), 0) << path;
  ASSERT_EQ(all_y, whole.y) << path;
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

// The same through RowFile, with the row cache in memory, in a file and off
// (NPY float32 in C order is never cached: it is read from its mapping).
void expect_same_rows(const std::string& path, const ReadOptions& options, bool mapped = false) {
  const Table whole = read_table(path, options);
  for (Cache cache : {Cache::memory, Cache::file, Cache::off}) {
    const RowFile rows(path, options, cache_options(cache));
    EXPECT_EQ(rows.cached(), !mapped && cache != Cache::off) << path;
    EXPECT_EQ(rows.cached_in_file(), !mapped && cache == Cache::file) << path;
    EXPECT_EQ(rows.mapped(), mapped) << path;
    expect_rows_equal(rows, whole, path);
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
      // Values float32 holds exactly and values it rounds (float64 files).
      v[i * cols + j] =
          j + 1 == cols ? static_cast<float>(i % 2) : static_cast<float>(i) * 0.5f - j + 0.1f * j;
      if (j + 1 < cols) x[i * (cols - 1) + j] = v[i * cols + j];
    }
  for (uint64_t i = 0; i < rows; ++i) y[i] = v[i * cols + cols - 1];
  // float32 in C order from the mapping; float64 and Fortran order converted
  // once into the row cache.
  expect_same_rows(write("a.npy", npy(v, rows, cols)), {}, true);
  expect_same_rows(write("a64.npy", npy_f64(v, rows, cols)), {});
  expect_same_rows(write("af.npy", npy_fortran(v, rows, cols)), {});
  ReadOptions labels;
  labels.labels_path = write("y.npy", npy(y, rows, 0));
  expect_same_rows(write("x.npy", npy(x, rows, cols - 1)), labels, true);
  expect_same_rows(write("x64.npy", npy_f64(x, rows, cols - 1)), labels);
  labels.labels_path = write("y64.npy", npy_f64(y, rows, 0));
  expect_same_rows(write("xf.npy", npy_fortran(x, rows, cols - 1)), labels);
  for (const char* f : {"a.npy", "a64.npy", "af.npy", "x.npy", "x64.npy", "xf.npy", "y.npy", "y64.npy"})
    std::filesystem::remove(temp_path(f));
}

// A float64 file converted into the row cache: later reads are the first
// pass's values, not the file's, and a bad value is refused by the first
// pass whether or not the rows are cached.
TEST(Rows, NpyConvertedOnceIntoTheRowCache) {
  std::vector<float> v;
  for (int i = 0; i < 100; ++i) v.insert(v.end(), {1.5f, static_cast<float>(i % 2)});
  const std::string path = write("once.npy", npy_f64(v, 100, 2));
  const RowFile cached(path, {}, cache_options(Cache::memory));
  ASSERT_TRUE(cached.cached());
  {
    // Overwritten in place: a cached file is not read again.
    std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(-16, std::ios::end);
    const double seven[2] = {7.0, 1.0};
    f.write(reinterpret_cast<const char*>(seven), sizeof seven);
  }
  std::vector<float> x(100), y(100);
  cached.read(0, 100, x.data(), y.data());
  EXPECT_THAT(x, ::testing::Each(1.5f));
  EXPECT_EQ(y[99], 1.0f);
  v[2 * 40] = std::numeric_limits<float>::infinity();
  const std::string bad = write("bad64.npy", npy_f64(v, 100, 2));
  for (Cache cache : {Cache::memory, Cache::off})
    EXPECT_THAT(error_of([&] { RowFile(bad, {}, cache_options(cache)); }),
                HasSubstr("row 40, column 0: inf is not finite"));
  std::filesystem::remove(path);
  std::filesystem::remove(bad);
}

// Parts of a file as MPI ranks read it: each part parses, checks and caches
// its own rows alone; together they are the file's rows.
void expect_parts_equal(const std::string& path, const ReadOptions& options) {
  const Table whole = read_table(path, options);
  const uint64_t m = whole.rows, d = whole.features;
  const uint64_t cuts[] = {0, 1, m / 3, m / 3 + 1, m - 1, m};
  for (Cache cache : {Cache::memory, Cache::file, Cache::off})
    for (uint64_t i = 0; i + 1 < std::size(cuts); ++i) {
      const RowRange want{cuts[i], cuts[i + 1] - cuts[i]};
      RowFile part(path, options, cache_options(cache), [&](uint64_t rows) {
        EXPECT_EQ(rows, m) << path;
        return want;
      });
      EXPECT_EQ(part.rows(), m) << path;
      // LIBSVM: a part's largest index, widened to the file's as the processes agree.
      if (path.ends_with(".svm")) {
        EXPECT_LE(part.features(), d);
        part.widen(d);
      }
      EXPECT_EQ(part.part().first, want.first);
      EXPECT_EQ(part.part().count, want.count);
      if (want.count) {
        EXPECT_EQ(part.features(), d) << path;
      }
      std::vector<float> x(want.count * d), y(want.count);
      part.read(want.first, want.count, x.data(), y.data());
      EXPECT_EQ(std::memcmp(x.data(), whole.x.data() + want.first * d, x.size() * sizeof(float)), 0)
          << path << " rows " << want.first;
      EXPECT_TRUE(std::equal(y.begin(), y.end(), whole.y.begin() + static_cast<ptrdiff_t>(want.first)));
      if (want.first) {
        EXPECT_THAT(error_of([&] { part.read(want.first - 1, 1, x.data(), y.data()); }),
                    HasSubstr("this process reads rows " + std::to_string(want.first) + " to"));
      }
    }
}

TEST(Rows, PartsReadTheirOwnRowsAlone) {
  // A header with a line break and a quote in a quoted name, quoted values,
  // comments (with quotes) and blank lines between rows, CRLF.
  std::string csv = "# \"a comment\n\"id\",\"the \"\"label\"\"\nhere\",b\r\n";
  for (int i = 0; i < 300; ++i) {
    csv += '"';
    csv += std::to_string(i * 0.25) + "\"," + std::to_string(i % 2) + "," + std::to_string(-i) + "\r\n";
    if (i % 41 == 7) csv += "\n  # between \" rows\n \t\n";
  }
  ReadOptions o;
  o.label = "the \"label\"\nhere";
  expect_parts_equal(write("p.csv", csv), o);
  std::string svm;
  for (int i = 0; i < 300; ++i) {
    svm += std::to_string(i % 2) + " 1:" + std::to_string(i) + (i % 3 ? " 3:2.5" : "") + " # row\n";
    if (i % 41 == 7) svm += "# a comment\n\n";
  }
  expect_parts_equal(write("p.svm", svm), {});
  std::vector<float> v;
  for (int i = 0; i < 300; ++i) v.insert(v.end(), {i * 0.1f, 3.0f, static_cast<float>(i % 2)});
  expect_parts_equal(write("p.npy", npy(v, 300, 3)), {});
  expect_parts_equal(write("p64.npy", npy_f64(v, 300, 3)), {});
  for (const char* f : {"p.csv", "p.svm", "p.npy", "p64.npy"}) std::filesystem::remove(temp_path(f));
}

// A bad value is refused by the part that holds it, with read_table's
// message, and not seen by the others (they do not parse it). A quote inside
// an unquoted field, where the scan for rows and the parser part ways, is
// refused by some part wherever the file is cut.
TEST(Rows, APartRefusesItsOwnBadRows) {
  std::string csv = "a,label\n";
  for (int i = 0; i < 100; ++i) csv += (i == 60 ? "x" : std::to_string(i)) + ",1\n";
  const std::string path = write("bad-part.csv", csv);
  const std::string want = error_of([&] { read_table(path, {}); });
  auto part = [](uint64_t first, uint64_t count) { return [=](uint64_t) { return RowRange{first, count}; }; };
  EXPECT_EQ(error_of([&] { RowFile(path, {}, {}, part(0, 60)); }), "");
  EXPECT_EQ(error_of([&] { RowFile(path, {}, {}, part(60, 40)); }), want);
  std::string quote = "a,label\n";
  for (int i = 0; i < 20; ++i) quote += (i == 9 ? "1\"2" : std::to_string(i)) + ",1\n";
  const std::string stray = write("stray.csv", quote);
  for (uint64_t cut = 0; cut <= 20; ++cut) {
    uint64_t m = 0;
    const std::string a = error_of([&] {
      RowFile(stray, {}, cache_options(Cache::off), [&](uint64_t r) {
        m = r;
        return RowRange{0, std::min(cut, r)};
      });
    });
    const std::string b = error_of([&] {
      RowFile(stray, {}, cache_options(Cache::off), [&](uint64_t r) {
        return RowRange{std::min(cut, r), r - std::min(cut, r)};
      });
    });
    EXPECT_TRUE(!a.empty() || !b.empty()) << "cut " << cut << " of " << m;
  }
  for (const char* f : {"bad-part.csv", "stray.csv"}) std::filesystem::remove(temp_path(f));
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
    for (Cache cache : {Cache::memory, Cache::file, Cache::off})
      EXPECT_EQ(error_of([&] { RowFile(path, {}, cache_options(cache)); }), want) << name;
    std::filesystem::remove(path);
  }
  std::vector<float> v = {1, 0, 2, 5};  // a label 5 on row 1
  const std::string path = write("label.npy", npy(v, 2, 2));
  EXPECT_THAT(error_of([&] { RowFile(path, {}); }), HasSubstr("row 1, column 1: the label is 5"));
  std::filesystem::remove(path);
}

// Written in place after the first pass (not replaced by rename): refused
// when the rows are read from the file; cached rows are the first pass's.
TEST(Rows, AFileThatChangesWhileBeingReadIsRefused) {
  for (const char* name : {"change.csv", "change.svm"}) {
    const bool csv = std::string(name).ends_with(".csv");
    const std::string row = csv ? "1.5,0\n" : "0 1:1.5\n";
    std::string text;
    for (int i = 0; i < 100; ++i) text += row;
    const std::string path = write(name, text);
    const RowFile parsed(path, {}, cache_options(Cache::off)), cached(path, {}, cache_options(Cache::file));
    std::vector<float> x(10), y(10);
    parsed.read(0, 10, x.data(), y.data());
    std::ofstream(path, std::ios::binary | std::ios::app) << (csv ? "7,1\n" : "1 1:7\n");
    EXPECT_THAT(error_of([&] { parsed.read(10, 10, x.data(), y.data()); }),
                HasSubstr("changed while it was being read"))
        << name;
    ASSERT_EQ(cached.rows(), 100u);
    std::vector<float> all_x(100), all_y(100);
    cached.read(0, 100, all_x.data(), all_y.data());
    EXPECT_THAT(all_x, ::testing::Each(1.5f)) << name;
    EXPECT_THAT(all_y, ::testing::Each(0.0f)) << name;
    std::filesystem::remove(path);
  }
}

// A CSV and a LIBSVM file of `rows` rows: 3 features, every value distinct.
std::pair<std::string, std::string> two_files(int rows) {
  std::string csv = "a,b,c,label\n", svm;
  for (int i = 0; i < rows; ++i) {
    const std::string a = std::to_string(i), b = std::to_string(i * 0.5), c = std::to_string(-i);
    csv += a + "," + b + "," + c + "," + std::to_string(i % 2) + "\n";
    svm += std::to_string(i % 2) + " 1:" + a + " 2:" + b + (i % 3 ? " 3:" + c : "") + "\n";
  }
  return {write("two.csv", csv), write("two.svm", svm)};
}

// Readers on several threads at once (as the trainer's, one per device) get
// every row right, from the cache in memory, in a file, and from the text.
TEST(RowCache, SeveralThreadsReadAtOnce) {
  const auto [csv, svm] = two_files(2000);
  for (const std::string& path : {csv, svm}) {
    const Table whole = read_table(path, {});
    for (Cache cache : {Cache::memory, Cache::file, Cache::off}) {
      const RowFile rows(path, {}, cache_options(cache));
      std::vector<std::thread> readers;
      std::atomic<int> wrong{0};
      for (int t = 0; t < 4; ++t)
        readers.emplace_back([&, t] {
          std::mt19937_64 rng(t);
          for (int k = 0; k < 200; ++k) {
            const uint64_t first = rng() % whole.rows,
                           count = 1 + rng() % std::min<uint64_t>(50, whole.rows - first);
            std::vector<float> x(count * whole.features), y(count);
            rows.read(first, count, x.data(), y.data());
            if (std::memcmp(x.data(), &whole.x[first * whole.features], x.size() * sizeof(float)) != 0 ||
                std::memcmp(y.data(), &whole.y[first], y.size() * sizeof(float)) != 0)
              ++wrong;
          }
        });
      for (std::thread& r : readers) r.join();
      EXPECT_EQ(wrong.load(), 0) << path;
    }
    std::filesystem::remove(path);
  }
}

// A cache larger than its memory budget moves to a file midway: the same rows.
TEST(RowCache, MovesToAFileAtItsMemoryBudget) {
  const auto [csv, svm] = two_files(3000);
  for (const std::string& path : {csv, svm}) {
    RowCacheOptions o = cache_options(Cache::memory);
    o.memory_budget = 10000;  // a few hundred rows
    const RowFile rows(path, {}, o);
    EXPECT_TRUE(rows.cached_in_file()) << path;
    expect_rows_equal(rows, read_table(path, {}), path);
    std::filesystem::remove(path);
  }
}

// The cache's file is unlinked as soon as it is made: nothing is left in its
// folder, while the rows are in use or after.
TEST(RowCache, LeavesNoFileBehind) {
  const auto [csv, svm] = two_files(500);
  const std::string dir = temp_path("cache-dir");
  std::filesystem::create_directory(dir);
  {
    RowCacheOptions o = cache_options(Cache::file);
    o.dir = dir;
    const RowFile a(csv, {}, o), b(svm, {}, o);
    ASSERT_TRUE(a.cached_in_file() && b.cached_in_file());
    EXPECT_TRUE(std::filesystem::is_empty(dir));
    expect_rows_equal(a, read_table(csv, {}), csv);
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove(dir);
  std::filesystem::remove(csv);
  std::filesystem::remove(svm);
}

// A folder no file can be made in: one warning naming the data file, the
// folder and the cause; the rows are parsed from the file, every one right.
TEST(RowCache, AFolderThatCannotHoldItWarnsOnceAndLosesNothing) {
  const auto [csv, svm] = two_files(500);
  const std::string not_a_folder = write("plain-file", "x");
  std::vector<std::pair<std::string, std::string>> folders = {
      {temp_path("no-such-folder"), "No such file or directory"}, {not_a_folder, "Not a directory"}};
  // sysfs, where no file can be made even by root: a read-only folder (its errno varies).
  if (std::filesystem::is_directory("/sys/kernel")) folders.push_back({"/sys/kernel", ""});
  for (const auto& [dir, cause] : folders) {
    for (const std::string& path : {csv, svm}) {
      std::vector<std::string> warnings;
      RowCacheOptions o = cache_options(Cache::file, &warnings);
      o.dir = dir;
      const RowFile rows(path, {}, o);
      EXPECT_FALSE(rows.cached());
      ASSERT_EQ(warnings.size(), 1u) << path;
      EXPECT_THAT(warnings[0], HasSubstr("the rows of " + path + " cannot be cached in " + dir));
      EXPECT_THAT(warnings[0], HasSubstr("cannot create a file there: " + cause));
      EXPECT_THAT(warnings[0], HasSubstr("read from the file (parsed or converted) on every pass"));
      expect_rows_equal(rows, read_table(path, {}), path);
    }
  }
  std::filesystem::remove(not_a_folder);
  std::filesystem::remove(csv);
  std::filesystem::remove(svm);
}

// A disk that fills while the cache is written (a file-size limit, which
// fails write() as a full disk does): one warning; the rows are parsed from
// the file, every one right, and the next cache is written.
TEST(RowCache, AWriteThatFailsMidwayWarnsOnceAndLosesNothing) {
  const auto [csv, svm] = two_files(30000);  // caches of about 360 KB
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &before), 0);
  for (const std::string& path : {csv, svm}) {
    std::vector<std::string> warnings;
    std::optional<RowFile> rows;
    {
      // Over the limit write() fails with EFBIG instead of the signal ending the process.
      const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
      rlimit small = before;
      small.rlim_cur = 100000;
      ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
      rows.emplace(path, ReadOptions{}, cache_options(Cache::file, &warnings));
      setrlimit(RLIMIT_FSIZE, &before);
      std::signal(SIGXFSZ, old_handler);
    }
    EXPECT_FALSE(rows->cached()) << path;
    ASSERT_EQ(warnings.size(), 1u) << path;
    EXPECT_THAT(warnings[0], HasSubstr("cannot write: File too large")) << path;
    expect_rows_equal(*rows, read_table(path, {}), path);
    EXPECT_TRUE(RowFile(path, {}, cache_options(Cache::file)).cached_in_file()) << path;
    std::filesystem::remove(path);
  }
}

}  // namespace
