#include "kernel_runner.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace porta::test {
namespace {

std::string run_command(const std::string& command, int& status) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) {
    status = -1;
    return "popen failed";
  }
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), pipe)) > 0) output.append(chunk, n);
  status = pclose(pipe);
  return output;
}

// Work-items one after another: only for kernels without barriers.
struct SequentialScheduler {
  static void run_items(void*, uint32_t count, void (*item)(void*, uint32_t), void* ctx) {
    for (uint32_t i = 0; i < count; ++i) item(ctx, i);
  }
  static void barrier(void*) {
    std::fprintf(stderr, "barrier() reached in the sequential test scheduler\n");
    std::abort();
  }
};

// One thread per work-item, a real barrier between them.
struct ThreadScheduler {
  std::unique_ptr<std::barrier<>> group_barrier;
  static void run_items(void* self, uint32_t count, void (*item)(void*, uint32_t), void* ctx) {
    auto* scheduler = static_cast<ThreadScheduler*>(self);
    scheduler->group_barrier = std::make_unique<std::barrier<>>(count);
    std::vector<std::thread> threads;
    threads.reserve(count);
    for (uint32_t i = 0; i < count; ++i)
      threads.emplace_back([=] {
        item(ctx, i);
        // A finished item stops taking part in later barriers.
        scheduler->group_barrier->arrive_and_drop();
      });
    for (std::thread& thread : threads) thread.join();
  }
  static void barrier(void* self) { static_cast<ThreadScheduler*>(self)->group_barrier->arrive_and_wait(); }
};

}  // namespace

std::vector<uint32_t> spirv_of(const std::string& glsl, bool optimize) {
  std::vector<uint32_t> spirv = translator::compile_glsl(glsl, "kernel.comp");
  return optimize ? translator::prepare(spirv) : (translator::validate(spirv), spirv);
}

std::vector<uint32_t> assemble(const std::string& text, spv_target_env env) {
  spvtools::SpirvTools tools(env);
  std::string messages;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t& at, const char* message) {
        messages += std::to_string(at.line) + ": " + message + "\n";
      });
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words)) << messages;
  return words;
}

CompiledKernel::CompiledKernel(const std::vector<uint32_t>& spirv,
                               const std::vector<translator::SpecValue>& specs, bool bounds_checks) {
  translator::TranslateOptions options;
  options.target = translator::Target::Cpp;
  options.specs = specs;
  options.bounds_checks = bounds_checks;
  source_ = translator::translate(spirv, options).source;
  char pattern[] = "/tmp/porta-translator-test-XXXXXX";
  if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
  directory_ = pattern;
  const std::string cpp = directory_ + "/kernel.cpp", so = directory_ + "/kernel.so";
  std::ofstream(cpp) << source_;
  const std::string command = std::string(PORTA_TEST_CXX) +
                              " -std=c++17 -O2 -fno-trapping-math -fopenmp-simd -Wall -Wextra -Werror -fPIC "
                              "-shared -fvisibility=hidden -I" +
                              PORTA_TEST_RUNTIME_DIR + " -o " + so + " " + cpp;
  int status = 0;
  const std::string output = run_command(command, status);
  if (status != 0) {
    error_ = "compile failed:\n" + output + "\n---- source ----\n" + source_;
    return;
  }
  handle_ = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    error_ = std::string("dlopen failed: ") + dlerror();
    return;
  }
  entry_ = static_cast<const porta_cpu_kernel_entry*>(dlsym(handle_, PORTA_CPU_KERNEL_SYMBOL));
  if (!entry_) error_ = "no symbol " PORTA_CPU_KERNEL_SYMBOL;
}

CompiledKernel::~CompiledKernel() {
  if (handle_) dlclose(handle_);
  if (!directory_.empty()) {
    std::remove((directory_ + "/kernel.cpp").c_str());
    std::remove((directory_ + "/kernel.so").c_str());
    rmdir(directory_.c_str());
  }
}

void CompiledKernel::dispatch(uint32_t gx, uint32_t gy, uint32_t gz, const std::vector<Buffer>& buffers,
                              const void* push, uint32_t) const {
  std::vector<void*> pointers;
  std::vector<uint64_t> sizes;
  for (const Buffer& buffer : buffers) {
    pointers.push_back(buffer.data);
    sizes.push_back(buffer.size);
  }
  ThreadScheduler threads;
  porta_cpu_scheduler scheduler{};
  if (entry_->uses_barrier) {
    scheduler.self = &threads;
    scheduler.run_items = ThreadScheduler::run_items;
    scheduler.barrier = ThreadScheduler::barrier;
  } else {
    scheduler.run_items = SequentialScheduler::run_items;
    scheduler.barrier = SequentialScheduler::barrier;
  }
  porta_cpu_group_args args{};
  args.buffers = pointers.data();
  args.buffer_sizes = sizes.data();
  args.buffer_count = static_cast<uint32_t>(buffers.size());
  args.push = push;
  args.num_groups[0] = gx;
  args.num_groups[1] = gy;
  args.num_groups[2] = gz;
  args.scheduler = &scheduler;
  for (uint32_t z = 0; z < gz; ++z)
    for (uint32_t y = 0; y < gy; ++y)
      for (uint32_t x = 0; x < gx; ++x) {
        args.group_id[0] = x;
        args.group_id[1] = y;
        args.group_id[2] = z;
        entry_->run_group(&args);
      }
}

}  // namespace porta::test
