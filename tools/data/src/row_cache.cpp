#include "porta_data/row_cache.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace porta::data {
namespace {

// Bytes gathered before a write to the file.
constexpr size_t kWriteBlock = size_t{1} << 20;

size_t page_size() { return static_cast<size_t>(::sysconf(_SC_PAGESIZE)); }

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

}  // namespace

uint64_t default_row_cache_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  return pages > 0 ? static_cast<uint64_t>(pages) * page_size() / 4 : uint64_t{1} << 30;
}

RowCache::RowCache(RowCacheOptions options, std::string source)
    : options_(std::move(options)), source_(std::move(source)) {
  dir_ = options_.dir;
  if (dir_.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir_ = tmp && *tmp ? tmp : "/tmp";
  }
  if (!options_.enabled) given_up_ = true;
}

RowCache::~RowCache() { release(); }

void RowCache::release() {
  if (memory_) ::munmap(memory_, capacity_);
  if (file_map_) ::munmap(file_map_, size_);
  if (fd_ >= 0) ::close(fd_);
  memory_ = file_map_ = nullptr;
  capacity_ = 0;
  fd_ = -1;
  std::string().swap(pending_);
}

void RowCache::abandon() {
  release();
  given_up_ = true;
}

void RowCache::give_up(const std::string& why) {
  const uint64_t written = size_;
  abandon();
  const std::string message =
      "the rows of " + source_ + " cannot be cached in " + dir_ + " (" + why + ", " +
      std::to_string(written) +
      " bytes converted so far); they are read from the file (parsed or converted) on every "
      "pass instead: the same values, more slowly";
  if (options_.warn)
    options_.warn(message);
  else
    std::fprintf(stderr, "warning: %s\n", message.c_str());
}

// The bytes in memory move to a new file in the folder, which is unlinked at
// once: only this process can reach it, and it goes when the process ends.
bool RowCache::to_file() {
  std::string path = dir_ + "/porta-rows-XXXXXX";
  fd_ = ::mkstemp(path.data());
  if (fd_ < 0) {
    give_up(std::string("cannot create a file there: ") + std::strerror(errno));
    return false;
  }
  if (::unlink(path.c_str()) != 0) {
    const int saved = errno;
    ::close(fd_);
    fd_ = -1;
    ::unlink(path.c_str());
    give_up("cannot unlink " + path + ": " + std::strerror(saved));
    return false;
  }
  in_file_ = true;
  pending_.reserve(kWriteBlock);
  const uint64_t held = size_;
  const char* memory = memory_;
  for (uint64_t at = 0; at < held; at += kWriteBlock) {
    pending_.append(memory + at, std::min<uint64_t>(kWriteBlock, held - at));
    if (!flush()) return false;
  }
  if (memory_) ::munmap(memory_, capacity_);
  memory_ = nullptr;
  capacity_ = 0;
  return true;
}

bool RowCache::flush() {
  for (size_t done = 0; done < pending_.size();) {
    const ssize_t n = ::write(fd_, pending_.data() + done, pending_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      give_up(std::string("cannot write: ") + (n < 0 ? std::strerror(errno) : "no room"));
      return false;
    }
    done += static_cast<size_t>(n);
  }
  pending_.clear();
  return true;
}

bool RowCache::append(const void* data, size_t size) {
  if (given_up_) return false;
  if (size == 0) return true;  // a LIBSVM row of zeros
  if (!in_file_) {
    const uint64_t need = size_ + size;
    if (need > capacity_ && need <= options_.memory_budget) {
      // Doubled, within the budget; grown in place where the address space allows.
      const size_t want = round_up(
          std::max<uint64_t>(need, std::min<uint64_t>(2 * uint64_t{capacity_}, options_.memory_budget)),
          page_size());
      void* grown = memory_
                        ? ::mremap(memory_, capacity_, want, MREMAP_MAYMOVE)
                        : ::mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (grown != MAP_FAILED) {
        memory_ = static_cast<char*>(grown);
        capacity_ = want;
      }
    }
    if (need <= capacity_) {
      std::memcpy(memory_ + size_, data, size);
      size_ = need;
      return true;
    }
    if (!to_file()) return false;
  }
  pending_.append(static_cast<const char*>(data), size);
  size_ += size;
  return pending_.size() < kWriteBlock || flush();
}

bool RowCache::finish() {
  if (given_up_) return false;
  if (in_file_) {
    if (!flush()) return false;
    // A filesystem that allocates late reports a full disk here, not at write.
    if (::fdatasync(fd_) != 0) {
      give_up(std::string("cannot flush: ") + std::strerror(errno));
      return false;
    }
    if (size_) {
      void* map = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd_, 0);
      if (map == MAP_FAILED) {
        give_up(std::string("cannot map the file: ") + std::strerror(errno));
        return false;
      }
      file_map_ = static_cast<char*>(map);
    }
    ::close(fd_);  // the mapping keeps the file
    fd_ = -1;
    std::string().swap(pending_);
  }
  finished_ = true;
  return true;
}

}  // namespace porta::data
