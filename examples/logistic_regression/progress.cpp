#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace logreg_tool {

Progress::Progress(uint64_t samples, uint64_t iterations)
    : samples_(samples),
      iterations_(iterations),
      shown_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  if (drawn_) std::fputs("\r\033[K", stderr);  // the report takes its place
}

void Progress::update(uint64_t done, float loss) {
  if (!shown_ || done == 0) return;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = seconds > 0 ? static_cast<double>(done) * static_cast<double>(samples_) / seconds : 0;
  const double left = seconds / static_cast<double>(done) * static_cast<double>(iterations_ - done);
  std::fprintf(stderr, "\r\033[Kiteration %llu/%llu  loss %.6f  %.3g samples/s  ETA %.0f s",
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(iterations_),
               static_cast<double>(loss), rate, left);
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace logreg_tool
