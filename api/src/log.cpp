// PORTA_LOG=error|warn|info|debug, written to stderr.
#include "log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

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

void log(porta_log_level level, const std::string& message) {
  if (level > log_level()) return;
  static const char* names[] = {"error", "warn", "info", "debug"};
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  std::fprintf(stderr, "porta[%s]: %s\n", names[level], message.c_str());
}

}  // namespace porta::core
