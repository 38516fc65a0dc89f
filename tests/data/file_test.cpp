#include "porta_data/file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "error_of.hpp"
#include "porta_data/table.hpp"

using namespace porta::data;
using ::testing::HasSubstr;

TEST(File, ReadsWholeFiles) {
  const auto p = std::filesystem::temp_directory_path() / ("porta-data-file-" + std::to_string(getpid()));
  std::ofstream(p, std::ios::binary) << std::string(200000, 'x');
  EXPECT_EQ(read_file(p.string()).size(), 200000u);
  std::filesystem::remove(p);
}

// A mapping moved over another (whose path is longer than a short string's
// inline buffer) releases the old one once and keeps the new one's bytes.
TEST(File, MappedFilesMoveOverEachOther) {
  const std::string base = (std::filesystem::temp_directory_path() /
                            ("porta-data-mapped-file-with-a-long-name-" + std::to_string(getpid())))
                               .string();
  std::ofstream(base + "-a", std::ios::binary) << "first";
  std::ofstream(base + "-b", std::ios::binary) << "second";
  MappedFile m(base + "-a");
  m = MappedFile(base + "-b");
  EXPECT_EQ(m.bytes(), "second");
  EXPECT_EQ(m.path(), base + "-b");
  m = MappedFile();
  EXPECT_EQ(m.bytes(), "");
  std::filesystem::remove(base + "-a");
  std::filesystem::remove(base + "-b");
}

TEST(File, PipesAreReadAsTheyCome) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_EQ(write(fds[1], "1,0\n", 4), 4);
  close(fds[1]);
  EXPECT_EQ(read_file("/dev/fd/" + std::to_string(fds[0])), "1,0\n");
  close(fds[0]);
}

TEST(File, MissingFilesAndDirectoriesAreNamed) {
  EXPECT_THAT(error_of([] { read_file("/nonexistent/d.csv"); }),
              HasSubstr("/nonexistent/d.csv: cannot open: No such file or directory"));
  EXPECT_THAT(error_of([] { read_file("/tmp"); }), HasSubstr("/tmp: is a directory; expected a data file"));
}

TEST(File, ADifferentStampIsAChange) {
  FileStamp a{10, 5, 1}, b = a;
  EXPECT_EQ(error_of([&] { check_unchanged("f", a, b); }), "");
  b.size = 12;
  EXPECT_THAT(error_of([&] { check_unchanged("f", a, b); }),
              HasSubstr("f: changed while it was being read (10 bytes before, 12 after)"));
  b = a;
  b.mtime_ns = 6;
  EXPECT_THAT(error_of([&] { check_unchanged("f", a, b); }), HasSubstr("modified"));
}

TEST(Format, ByExtensionAndName) {
  EXPECT_EQ(format_of_path("a/b.CSV"), Format::csv);
  EXPECT_EQ(format_of_path("x.npy"), Format::npy);
  EXPECT_EQ(format_of_path("x.svm"), Format::libsvm);
  EXPECT_THAT(error_of([] { format_of_path("d.v1/data"); }),
              HasSubstr("cannot tell the format from the extension ''"));
  EXPECT_EQ(format_from_name("libsvm"), Format::libsvm);
  EXPECT_FALSE(format_from_name("parquet"));
}

TEST(Format, LabelsFileOnlyWithNpy) {
  ReadOptions o;
  o.labels_path = "y.npy";
  EXPECT_THAT(error_of([&] { read_table("d.csv", o); }),
              HasSubstr("a labels file goes with NPY features only"));
}

TEST(File, AtomicWriteReplacesWholeAndLeavesNothingOnFailure) {
  const auto dir = std::filesystem::temp_directory_path() / ("porta-data-atomic-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto p = dir / "model.json";
  write_file_atomically(p.string(), "old");
  write_file_atomically(p.string(), "new contents");
  EXPECT_EQ(read_file(p.string()), "new contents");
  EXPECT_THAT(error_of([&] { write_file_atomically((dir / "no" / "such" / "dir.json").string(), "x"); }),
              HasSubstr("cannot create a temporary file beside it"));
  // A target that cannot be replaced (a directory) leaves no temporary file behind.
  std::filesystem::create_directories(dir / "sub");
  EXPECT_THAT(error_of([&] { write_file_atomically((dir / "sub").string(), "x"); }),
              HasSubstr("cannot rename the finished file to"));
  uint64_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) entries += e.path().filename() != "sub";
  EXPECT_EQ(entries, 1u);  // model.json only
  std::filesystem::remove_all(dir);
}
