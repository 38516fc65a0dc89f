#include "porta_data/file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "porta_data/table.hpp"

namespace porta::data {
namespace {

[[noreturn]] void system_error(const std::string& path, const char* what) {
  fail(path, 0, 0, std::string(what) + ": " + std::strerror(errno));
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

int open_regular(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) system_error(path, "cannot open");
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    fail(path, 0, 0, "is a directory; expected a data file");
  }
  return fd;
}

}  // namespace

FileStamp stamp_of(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) system_error(path, "cannot stat");
  FileStamp s;
  s.size = static_cast<uint64_t>(st.st_size);
  s.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  s.inode = static_cast<uint64_t>(st.st_ino);
  s.regular = S_ISREG(st.st_mode);
  return s;
}

void check_unchanged(const std::string& path, const FileStamp& before, const FileStamp& now) {
  if (before == now) return;
  fail(path, 0, 0,
       "changed while it was being read (" + std::to_string(before.size) + " bytes before, " +
           std::to_string(now.size) + " after" + (before.mtime_ns != now.mtime_ns ? ", modified" : "") +
           "); nothing was used. Read it again once it is complete");
}

std::string read_file(const std::string& path) {
  Fd f{open_regular(path)};
  const FileStamp before = stamp_of(f.fd, path);
  std::string bytes;
  bytes.reserve(before.size);
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(f.fd, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      system_error(path, "cannot read");
    }
    if (n == 0) break;
    bytes.append(chunk, static_cast<size_t>(n));
  }
  FileStamp after = stamp_of(f.fd, path);
  if (!before.regular) return bytes;
  // A file that grew or shrank while being read shows in the count read too.
  if (bytes.size() != before.size) after.size = bytes.size();
  check_unchanged(path, before, after);
  return bytes;
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) system_error(path, "cannot create a temporary file beside it");
  auto abandon = [&](const char* what) {
    const int saved = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    errno = saved;
    system_error(path, what);
  };
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) abandon("cannot write");
    done += static_cast<size_t>(n);
  }
  // mkstemp makes the file 0600; a written file gets the usual permissions.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd, 0666 & ~mask) != 0) abandon("cannot set the permissions of");
  if (::fsync(fd) != 0) abandon("cannot flush");
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    system_error(path, "cannot close");
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temp.c_str());
    errno = saved;
    system_error(path, "cannot rename the finished file to");
  }
}

void check_writable(const std::string& path) {
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) system_error(path, "cannot create a temporary file beside it");
  ::close(fd);
  ::unlink(temp.c_str());
}

MappedFile::MappedFile(const std::string& path, Access access)
    : path_(path), writable_(access == Access::copy_on_write) {
  fd_ = open_regular(path);
  stamp_ = stamp_of(fd_, path);
  size_ = stamp_.size;
  if (size_ == 0) return;  // mmap refuses length 0; bytes() is empty
  data_ = ::mmap(nullptr, size_, writable_ ? PROT_READ | PROT_WRITE : PROT_READ, MAP_PRIVATE, fd_, 0);
  if (data_ == MAP_FAILED) {
    data_ = nullptr;
    const int saved = errno;
    ::close(fd_);
    fd_ = -1;
    errno = saved;
    system_error(path, "cannot map");
  }
}

MappedFile::MappedFile(MappedFile&& other) noexcept { *this = std::move(other); }

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    unmap();
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    writable_ = std::exchange(other.writable_, false);
    stamp_ = other.stamp_;
  }
  return *this;
}

MappedFile::~MappedFile() { unmap(); }

void MappedFile::unmap() {
  if (data_) ::munmap(data_, size_);
  if (fd_ >= 0) ::close(fd_);
  data_ = nullptr;
  fd_ = -1;
}

void MappedFile::check_unchanged() const {
  if (fd_ < 0) return;
  data::check_unchanged(path_, stamp_, stamp_of(fd_, path_));
}

}  // namespace porta::data
