// Pinned host memory a stream keeps for small transfers outside recordings: a
// write is copied into it when it is queued and a read lands in it and is
// copied out to the caller when the stream syncs, so a small transfer is one
// DMA with no staging chunk to wait for, no host callback and no driver-side
// copy of pageable memory. The space is reused after each sync; a transfer
// that does not fit takes the backend's general path.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace porta::plugin {

class SmallTransfers {
 public:
  static constexpr uint64_t kBytes = uint64_t{64} << 10;
  static constexpr uint64_t kLargest = uint64_t{16} << 10;

  // Room for `size` bytes, or null when the transfer is too large or the
  // space is full until the next sync. `allocate()` returns kBytes of the
  // backend's pinned memory, once, at first use.
  template <class Allocate>
  char* take(uint64_t size, Allocate&& allocate) {
    if (size > kLargest || used_ + size > kBytes) return nullptr;
    if (!host_) host_ = static_cast<char*>(allocate());
    char* at = host_ + used_;
    used_ = (used_ + size + 15) & ~uint64_t{15};
    return at;
  }
  // A read into `from` (taken above) that goes to `to` once the stream is idle.
  void copy_out_later(void* to, const char* from, uint64_t size) { reads_.push_back({to, from, size}); }
  // Whether a read waiting for the sync goes to host memory that overlaps
  // [to, to + size): a read queued after it on another path (which lands
  // before the sync) must wait for it, or the earlier read would win.
  bool read_pending_into(const void* to, uint64_t size) const {
    const auto* begin = static_cast<const char*>(to);
    for (const Read& r : reads_) {
      const auto* r_begin = static_cast<const char*>(r.to);
      if (r_begin < begin + size && begin < r_begin + r.size) return true;
    }
    return false;
  }
  // Once the stream's work is done: copies the reads out (unless the work
  // failed) and frees the space.
  void finish(bool succeeded) {
    if (succeeded)
      for (const Read& r : reads_) std::memcpy(r.to, r.from, r.size);
    reads_.clear();
    used_ = 0;
  }
  char* host() const { return host_; }

 private:
  struct Read {
    void* to;
    const char* from;
    uint64_t size;
  };
  char* host_ = nullptr;
  uint64_t used_ = 0;
  std::vector<Read> reads_;
};

}  // namespace porta::plugin
