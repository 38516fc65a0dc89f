// The kernel cache on disk: entries keyed by a content hash, written
// atomically, checked on load (cache.cpp says where and how).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace porta::core {

// Empty when the cache is off (PORTA_CACHE=0) or no directory can be made.
const std::string& cache_dir();
bool cache_load(const std::string& key, std::vector<uint8_t>& data);
bool cache_store(const std::string& key, const void* data, size_t size);
std::string hash_hex(const void* data, size_t size, const std::string& salt = {});

}  // namespace porta::core
