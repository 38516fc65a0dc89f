// Reading a data file whole and safely: the bytes are a snapshot, and a file
// that changes while it is read (its size or modification time differ before
// and after) is refused rather than read half old, half new.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace porta::data {

// What identifies one version of a file.
struct FileStamp {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  uint64_t inode = 0;
  // A pipe or terminal (--data /dev/stdin) has no size to compare: read once, as it comes.
  bool regular = true;
  bool operator==(const FileStamp&) const = default;
};

// The stamp of the open file `fd`; throws std::runtime_error naming `path`.
FileStamp stamp_of(int fd, const std::string& path);
// Throws Error("... changed while it was being read") when `now` differs from `before`.
void check_unchanged(const std::string& path, const FileStamp& before, const FileStamp& now);

// The whole file, read once. Throws Error when it cannot be opened or read, or
// when it changed while being read.
std::string read_file(const std::string& path);

// Writes `bytes` to `path` whole or not at all: into a temporary file beside
// it, flushed to disk, then renamed over `path`. A reader sees the old file or
// the new one, never half of it; on failure the temporary file is removed and
// Error says why.
void write_file_atomically(const std::string& path, std::string_view bytes);
// Throws the Error write_file_atomically would for a folder it cannot write
// in, before the work whose result it is to hold is done.
void check_writable(const std::string& path);

// A file mapped read-only into memory: no copy on the host. Keep the object
// alive as long as bytes() is used. check_unchanged() compares the file with
// the stamp taken when it was mapped (call it after reading what you need: a
// file truncated under a mapping can also end the process with SIGBUS, which
// no reader can prevent; write data files by rename, as porta does).
class MappedFile {
 public:
  // read: read-only. copy_on_write: writable too, privately: a page written
  // becomes this process's own copy; the file is never written.
  enum class Access { read, copy_on_write };
  MappedFile() = default;
  explicit MappedFile(const std::string& path, Access access = Access::read);
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }
  // The bytes to write, mapped copy_on_write; nullptr otherwise.
  char* writable_bytes() { return writable_ ? static_cast<char*>(data_) : nullptr; }
  const std::string& path() const { return path_; }
  void check_unchanged() const;

 private:
  void unmap();

  std::string path_;
  int fd_ = -1;
  void* data_ = nullptr;
  size_t size_ = 0;
  bool writable_ = false;
  FileStamp stamp_;
};

}  // namespace porta::data
