// The kernel cache: $PORTA_CACHE_DIR, else $XDG_CACHE_HOME/porta, else
// ~/.cache/porta. Writes are atomic (temporary file, then rename), so a reader
// sees a whole entry or none. Each entry starts with a header holding a magic
// and a checksum over its key and what follows, so that a damaged (or
// renamed) file is found here and rebuilt, and never reaches a driver or the
// cpu backend's loader. PORTA_CACHE=0 turns it off.
#include "cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "errors.hpp"
#include "log.hpp"
#include "porta_common/hash.hpp"

namespace porta::core {
namespace {

std::string resolve_cache_dir() {
  const char* off = std::getenv("PORTA_CACHE");
  if (off && std::string(off) == "0") {
    log(PORTA_LOG_INFO, "kernel cache off (PORTA_CACHE=0)");
    return {};
  }
  std::string dir;
  if (const char* env = std::getenv("PORTA_CACHE_DIR"); env && *env) {
    dir = env;
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    dir = std::string(xdg) + "/porta";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    dir = std::string(home) + "/.cache/porta";
  } else {
    log(PORTA_LOG_WARN, "kernel cache off: neither PORTA_CACHE_DIR, XDG_CACHE_HOME nor HOME is set");
    return {};
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || access(dir.c_str(), W_OK) != 0) {
    log(PORTA_LOG_WARN, format("kernel cache off: cannot use %s (%s)", dir.c_str(),
                               ec ? ec.message().c_str() : std::strerror(errno)));
    return {};
  }
  log(PORTA_LOG_INFO, "kernel cache: " + dir);
  return dir;
}

// Entry header: "PORTAKC2", then the XXH3-128 of the key and the payload
// (high half, then low half, native byte order).
constexpr char kMagic[8] = {'P', 'O', 'R', 'T', 'A', 'K', 'C', '2'};
constexpr size_t kHeaderSize = 24;

void checksum(const std::string& key, const uint8_t* data, size_t size, uint8_t out[16]) {
  const XXH128_hash_t h = common::Hasher().add(key).add(data, size).digest();
  std::memcpy(out, &h.high64, 8);
  std::memcpy(out + 8, &h.low64, 8);
}

bool valid_key(const std::string& key) {
  if (key.empty() || key.size() > 200) return false;
  for (char c : key)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
  return key[0] != '.';
}

}  // namespace

const std::string& cache_dir() {
  static const std::string dir = resolve_cache_dir();
  return dir;
}

bool cache_load(const std::string& key, std::vector<uint8_t>& data) {
  if (cache_dir().empty() || !valid_key(key)) return false;
  std::ifstream in(cache_dir() + "/" + key, std::ios::binary);
  if (!in) return false;
  std::vector<uint8_t> file{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return false;
  uint8_t want[16];
  if (file.size() >= kHeaderSize) checksum(key, file.data() + kHeaderSize, file.size() - kHeaderSize, want);
  if (file.size() < kHeaderSize || std::memcmp(file.data(), kMagic, sizeof kMagic) != 0 ||
      std::memcmp(file.data() + sizeof kMagic, want, sizeof want) != 0) {
    log(PORTA_LOG_WARN, "kernel cache: " + cache_dir() + "/" + key + " is damaged; it will be rebuilt");
    std::remove((cache_dir() + "/" + key).c_str());
    return false;
  }
  data.assign(file.begin() + kHeaderSize, file.end());
  return true;
}

// Set once a write fails for want of room or permission (a full or read-only
// disk): the cache stays off for the rest of the process, with one warning,
// rather than failing and warning at every kernel.
std::atomic<bool> g_writes_off{false};

bool cache_store(const std::string& key, const void* data, size_t size) {
  if (cache_dir().empty() || !valid_key(key) || g_writes_off.load()) return false;
  static std::atomic<unsigned> counter{0};
  std::string final_path = cache_dir() + "/" + key;
  std::string tmp = format("%s.tmp.%d.%u", final_path.c_str(), static_cast<int>(getpid()), counter++);
  uint8_t header[kHeaderSize];
  std::memcpy(header, kMagic, sizeof kMagic);
  checksum(key, static_cast<const uint8_t*>(data), size, header + sizeof kMagic);
  std::vector<uint8_t> file(header, header + kHeaderSize);
  file.insert(file.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
  int error = 0;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = errno;
  } else {
    const char* p = reinterpret_cast<const char*>(file.data());
    size_t left = file.size();
    while (left > 0 && !error) {
      const ssize_t n = ::write(fd, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error = n < 0 ? errno : ENOSPC;
        break;
      }
      p += n;
      left -= static_cast<size_t>(n);
    }
    if (::close(fd) != 0 && !error) error = errno;
    if (!error && std::rename(tmp.c_str(), final_path.c_str()) != 0) error = errno;
  }
  if (!error) return true;
  std::remove(tmp.c_str());
  const bool no_room = error == ENOSPC || error == EDQUOT || error == EFBIG || error == EROFS ||
                       error == EACCES || error == EPERM;
  if (no_room) {
    if (!g_writes_off.exchange(true))
      log(PORTA_LOG_WARN,
          format("kernel cache off: cannot write in %s (%s); kernels are built anew each time",
                 cache_dir().c_str(), std::strerror(error)));
  } else {
    log(PORTA_LOG_WARN,
        format("kernel cache: could not write %s (%s)", final_path.c_str(), std::strerror(error)));
  }
  return false;
}

std::string hash_hex(const void* data, size_t size, const std::string& salt) {
  return common::Hasher().add(salt).add(data, size).hex();
}

}  // namespace porta::core
