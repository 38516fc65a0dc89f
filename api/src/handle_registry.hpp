// Handle registry: every live handle is registered so the C API can tell a
// null, destroyed or foreign handle from a live one and say so.
#pragma once

#include <cstdint>

namespace porta::core {

void register_handle(const void* handle, const char* kind);
void unregister_handle(const void* handle);
// Throws INVALID_HANDLE unless `handle` is live and of `kind`. `argument`
// names the parameter where a call takes two handles of one kind ("src").
void check_handle(const void* handle, const char* kind, const char* call, const char* argument = nullptr);
// Whether `handle` is live and of `kind`, without building a message: for hot
// paths that check many handles and name each only when one is wrong.
bool is_live(const void* handle, const char* kind);
// How many handles are live (porta_live_handle_count).
uint64_t live_handle_count();

// Registers a new handle of `kind` and gives it to the caller in *out.
template <class Handle>
void hand_out(Handle handle, const char* kind, Handle* out) {
  register_handle(handle, kind);
  *out = handle;
}

// The first step of every destroy entry: false when there is nothing to
// destroy (a null handle, or one that is not live and of `kind`: the last
// error says which); else the handle is unregistered and the caller frees it.
bool release_handle(const void* handle, const char* kind, const char* call);

}  // namespace porta::core
