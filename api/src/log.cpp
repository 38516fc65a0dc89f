// PORTA_LOG=error|warn|info|debug, written to stderr or the host's sink (porta_set_log_sink).
#include "log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "porta/interop.h"

namespace porta::core {

porta_log_level log_level() {
  static const porta_log_level level = [] {
    const char* env = std::getenv("PORTA_LOG");
    if (!env || !*env) return PORTA_LOG_WARN;
    if (!std::strcmp(env, "error")) return PORTA_LOG_ERROR;
    if (!std::strcmp(env, "warn")) return PORTA_LOG_WARN;
    if (!std::strcmp(env, "info")) return PORTA_LOG_INFO;
    if (!std::strcmp(env, "debug")) return PORTA_LOG_DEBUG;
    std::fprintf(stderr, "porta[warn]: PORTA_LOG=%s is not one of error, warn, info, debug; using warn\n",
                 env);
    return PORTA_LOG_WARN;
  }();
  return level;
}

namespace {
std::mutex log_mutex;  // one message at a time, to stderr or the sink
porta_log_sink log_sink = nullptr;
void* log_sink_user_data = nullptr;
}  // namespace

void log(porta_log_level level, const std::string& message) {
  if (level > log_level()) return;
  static const char* names[] = {"error", "warn", "info", "debug"};
  std::lock_guard lock(log_mutex);
  if (log_sink)
    log_sink(level, message.c_str(), log_sink_user_data);
  else
    std::fprintf(stderr, "porta[%s]: %s\n", names[level], message.c_str());
}

}  // namespace porta::core

extern "C" void porta_set_log_sink(porta_log_sink sink, void* user_data) {
  std::lock_guard lock(porta::core::log_mutex);
  porta::core::log_sink = sink;
  porta::core::log_sink_user_data = user_data;
}
