// Handle registry: every live handle is registered so the C API can tell a
// null, destroyed or foreign handle from a live one and say so.
#pragma once

namespace porta::core {

void register_handle(const void* handle, const char* kind);
void unregister_handle(const void* handle);
// Throws INVALID_HANDLE unless `handle` is live and of `kind`.
void check_handle(const void* handle, const char* kind, const char* call);

}  // namespace porta::core
