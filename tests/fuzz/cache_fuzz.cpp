// Fuzz entry point for the kernel cache on disk (api/src/cache.cpp), in a
// folder of its own (PORTA_CACHE_DIR, made at start). The input is a key
// (first byte: its length) and the bytes of an entry file:
// - any key: load and store refuse a key that is not a plain file name, and
//   nothing appears outside the cache folder;
// - the bytes as an entry file under a valid key: load refuses it (and
//   removes it) unless it is a whole entry, and then returns its payload;
// - the bytes stored, then loaded: the same bytes come back.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cache.hpp"

namespace fs = std::filesystem;

namespace {

std::string g_dir;

[[noreturn]] void bug(const char* what, const std::string& key) {
  std::fprintf(stderr, "cache fuzz: %s (key '%s')\n", what, key.c_str());
  std::abort();
}

bool plain_name(const std::string& key) {
  if (key.empty() || key.size() > 200 || key[0] == '.') return false;
  for (unsigned char c : key)
    if (!(std::isalnum(c) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

// The number of files in the folder above the cache: nothing may land there.
size_t files_beside() {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(fs::path(g_dir).parent_path())) n += e.path() != g_dir;
  return n;
}

}  // namespace

// The cache's own folder, made on the first input (replay_main.cpp has no
// LLVMFuzzerInitialize).
static void make_cache_dir() {
  char pattern[] = "/tmp/porta-cache-fuzz-XXXXXX";
  if (!mkdtemp(pattern)) std::abort();
  g_dir = std::string(pattern) + "/cache";
  fs::create_directories(g_dir);
  setenv("PORTA_CACHE_DIR", g_dir.c_str(), 1);
  setenv("PORTA_LOG", "error", 1);  // a damaged entry is a warning each time
  if (porta::core::cache_dir() != g_dir) std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace porta::core;
  if (g_dir.empty()) make_cache_dir();
  if (size == 0) return 0;
  const size_t key_size = std::min<size_t>(data[0], size - 1);
  const std::string key(reinterpret_cast<const char*>(data + 1), key_size);
  const std::vector<uint8_t> bytes(data + 1 + key_size, data + size);

  // Any key.
  const size_t beside = files_beside();
  std::vector<uint8_t> loaded;
  const bool stored = cache_store(key, bytes.data(), bytes.size());
  if (stored != plain_name(key)) bug("store took a key that is not a plain file name, or refused one", key);
  if (stored && (!cache_load(key, loaded) || loaded != bytes))
    bug("a stored entry did not load back whole", key);
  if (files_beside() != beside) bug("a file appeared outside the cache folder", key);

  // The bytes as an entry file under a valid key.
  const std::string safe = "entry-" + hash_hex(key.data(), key.size());
  const std::string path = g_dir + "/" + safe;
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  loaded.clear();
  if (cache_load(safe, loaded)) {
    if (bytes.size() < 24 || loaded.size() != bytes.size() - 24 ||
        std::memcmp(loaded.data(), bytes.data() + 24, loaded.size()) != 0)
      bug("an entry loaded with other bytes than its payload", safe);
  } else if (fs::exists(path)) {
    bug("a damaged entry was left in place", safe);
  }
  fs::remove(path);
  if (stored) fs::remove(g_dir + "/" + key);
  return 0;
}
