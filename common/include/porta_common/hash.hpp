// Content hashes for cache keys and cache-entry checksums: XXH3's 128-bit
// hash (xxHash, Debian's libxxhash-dev), compiled into each user from the
// header so nothing links against the library at run time.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace porta::common {

// The hash of the pieces, in order, each one length-prefixed (so that "ab"+"c"
// and "a"+"bc" differ). Not a security boundary: a name for content, and a
// check that stored bytes are the bytes that were written.
class Hasher {
 public:
  Hasher() { XXH3_128bits_reset(&state_); }
  Hasher& add(const void* data, size_t size) {
    const unsigned long long length = size;
    XXH3_128bits_update(&state_, &length, sizeof length);
    XXH3_128bits_update(&state_, data, size);
    return *this;
  }
  Hasher& add(std::string_view text) { return add(text.data(), text.size()); }
  XXH128_hash_t digest() const { return XXH3_128bits_digest(&state_); }
  // 32 lower-case hex digits.
  std::string hex() const {
    const XXH128_hash_t h = digest();
    char out[33];
    std::snprintf(out, sizeof out, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                  static_cast<unsigned long long>(h.low64));
    return out;
  }

 private:
  XXH3_state_t state_;
};

}  // namespace porta::common
