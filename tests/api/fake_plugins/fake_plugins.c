/* Deliberately broken plugins: each must be reported with its reason while
 * the real plugins still load. Which one is built is chosen by FAKE_KIND. */
#include <stddef.h>

#include "porta/plugin.h"

#if FAKE_KIND == 1
/* Exports a wrongly named entry: no porta_plugin_entry symbol. */
PORTA_PLUGIN_EXPORT int porta_plugin_entry_misspelt(void) { return 0; }

#elif FAKE_KIND == 2
/* Speaks a future ABI version. */
static const porta_plugin_api table = {.abi_version = PORTA_PLUGIN_ABI_VERSION + 41, .name = "fake_abi"};
PORTA_PLUGIN_EXPORT const porta_plugin_api* porta_plugin_entry(void) { return &table; }

#elif FAKE_KIND == 3
/* A complete table whose runtime is missing: init fails with a reason. */
static const porta_host_api* host;
static porta_status init(const porta_host_api* h) {
  host = h;
  host->set_error(PORTA_ERROR_UNAVAILABLE, "fake_init: libfakeruntime.so.1 not found");
  return PORTA_ERROR_UNAVAILABLE;
}
static void shutdown_(void) {}
static uint32_t device_count(void) { return 0; }
static porta_status unavailable(void) { return PORTA_ERROR_UNAVAILABLE; }
#define U (void*)unavailable
static const porta_plugin_api table = {
    .abi_version = PORTA_PLUGIN_ABI_VERSION, .name = "fake_init", .language = PORTA_LANGUAGE_CPP,
    .init = init, .shutdown = shutdown_, .device_count = device_count,
    .device_info = U, .device_open = U, .device_close = U, .buffer_create = U, .buffer_destroy = U,
    .kernel_create = U, .kernel_destroy = U, .stream_create = U, .stream_destroy = U, .stream_write = U,
    .stream_read = U, .stream_copy = U, .stream_fill = U, .stream_dispatch = U, .stream_sync = U,
    .event_record = U, .event_elapsed_ms = U, .event_destroy = U};
PORTA_PLUGIN_EXPORT const porta_plugin_api* porta_plugin_entry(void) { return &table; }

#elif FAKE_KIND == 4
/* Not loadable at all: depends on a library that does not exist. */
extern int porta_fake_symbol_that_does_not_exist(void);
PORTA_PLUGIN_EXPORT int call_missing(void) { return porta_fake_symbol_that_does_not_exist(); }
#endif
