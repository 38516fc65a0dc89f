// The registry of live handles (handle_registry.hpp).
#include "handle_registry.hpp"

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "errors.hpp"

namespace porta::core {

namespace {
std::mutex& handle_mutex() {
  static std::mutex m;
  return m;
}
std::unordered_map<const void*, const char*>& handles() {
  static auto* map = new std::unordered_map<const void*, const char*>();  // outlives static destructors
  return *map;
}
}  // namespace

void register_handle(const void* handle, const char* kind) {
  std::lock_guard lock(handle_mutex());
  handles()[handle] = kind;
}

void unregister_handle(const void* handle) {
  std::lock_guard lock(handle_mutex());
  handles().erase(handle);
}

void check_handle(const void* handle, const char* kind, const char* call, const char* argument) {
  // Built only for a message: ops check every operand on every call.
  const auto where = [&] { return argument ? format("%s: %s", call, argument) : std::string(call); };
  if (!handle) fail(PORTA_ERROR_INVALID_HANDLE, "%s: the %s handle is null", where().c_str(), kind);
  std::lock_guard lock(handle_mutex());
  auto it = handles().find(handle);
  if (it == handles().end())
    fail(PORTA_ERROR_INVALID_HANDLE, "%s: the %s handle %p is not live (destroyed, or never made by porta)",
         where().c_str(), kind, handle);
  if (std::strcmp(it->second, kind) != 0)
    fail(PORTA_ERROR_INVALID_HANDLE, "%s: expected a %s handle, got a %s handle", where().c_str(), kind,
         it->second);
}

bool is_live(const void* handle, const char* kind) {
  if (!handle) return false;
  std::lock_guard lock(handle_mutex());
  auto it = handles().find(handle);
  return it != handles().end() && std::strcmp(it->second, kind) == 0;
}

bool release_handle(const void* handle, const char* kind, const char* call) {
  if (!handle) return false;
  if (guard([&] { check_handle(handle, kind, call); }) != PORTA_SUCCESS) return false;
  unregister_handle(handle);
  return true;
}

uint64_t live_handle_count() {
  std::lock_guard lock(handle_mutex());
  return handles().size();
}

}  // namespace porta::core
