// Rows converted once and read many times: the float32 rows a first pass over
// a text data file (CSV, LIBSVM) produces, so that training's later passes
// copy them instead of parsing the text again (porta_data/rows.hpp).
//
// The bytes are held in host memory up to a budget; past it they go to a
// temporary file, which is mapped once written. The file is unlinked as soon
// as it is made: it is gone when the process ends, however it ends. A cache
// that cannot be written (a full disk, a folder no file can be made in, a
// file-size limit) is given up with one warning, and its owner reads the rows
// from their source as before: nothing is lost, only speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace porta::data {

// A quarter of this machine's physical memory.
uint64_t default_row_cache_memory();

struct RowCacheOptions {
  bool enabled = true;
  // Bytes held in host memory; a cache larger than that goes to a file.
  uint64_t memory_budget = default_row_cache_memory();
  // The file's folder; empty: $TMPDIR, else /tmp.
  std::string dir;
  // Receives the one warning of a cache given up; empty: standard error.
  std::function<void(const std::string&)> warn;
};

class RowCache {
 public:
  // `source` is the file the rows come from (named in the warning).
  RowCache(RowCacheOptions options, std::string source);
  RowCache(const RowCache&) = delete;
  RowCache& operator=(const RowCache&) = delete;
  ~RowCache();

  // Appends `size` bytes. False once the cache is given up (the warning given).
  bool append(const void* data, size_t size);
  // Ends writing: bytes() holds everything appended. False once given up.
  bool finish();
  // Gives the cache up without a warning (rows it cannot represent).
  void abandon();

  bool usable() const { return finished_ && !given_up_; }
  bool in_file() const { return in_file_; }
  const std::string& folder() const { return dir_; }
  // Readable once finish() succeeded; shared by any number of threads.
  const char* bytes() const { return file_map_ ? file_map_ : memory_; }
  uint64_t size() const { return size_; }

 private:
  void give_up(const std::string& why);
  bool to_file();
  bool flush();
  void release();

  RowCacheOptions options_;
  std::string source_, dir_;
  bool finished_ = false, given_up_ = false, in_file_ = false;
  uint64_t size_ = 0;
  // In memory: an anonymous mapping grown in place (mremap), never past the budget.
  char* memory_ = nullptr;
  size_t capacity_ = 0;
  // In a file: written through `pending_`, then mapped read-only.
  int fd_ = -1;
  std::string pending_;
  char* file_map_ = nullptr;
};

}  // namespace porta::data
