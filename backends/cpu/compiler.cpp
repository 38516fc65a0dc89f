#include "compiler.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "builtin.hpp"
#include "device.hpp"
#include "porta_common/hash.hpp"

extern char** environ;

namespace porta::cpu {

namespace fs = std::filesystem;
using plugin::fail;

namespace {

// -fwrapv: GLSL's signed integer arithmetic wraps; C++'s would be undefined.
// -ffp-contract=off: a * b + c stays two roundings, as in the built-in
// kernels, so the reference results do not depend on the processor.
// -fopenmp-simd: the `omp simd` loop that runs a group's work-items as vector
// lanes (porta_cpu_kernel.inc, "run_group_loop"); no OpenMP run time.
// -fno-trapping-math: kernels never read floating-point exception flags, so
// a lane may compute what its item skips (a division under an `if`), which
// is how a loop with branches vectorises; no value changes.
// -march: this processor's, or the level PORTA_CPU_ISA caps the built-in
// variants at (isa_level()), so a process that cannot run the processor's
// widest instructions (valgrind has no AVX-512) runs run-time compiles too.
std::vector<std::string> compile_flags() {
  std::vector<std::string> flags = {"-std=c++17",         "-O2",           "-fwrapv", "-ffp-contract=off",
                                    "-fno-trapping-math", "-fopenmp-simd", "-fPIC",   "-shared",
                                    "-fvisibility=hidden"};
#if defined(__x86_64__)
  const char* cap = std::getenv("PORTA_CPU_ISA");
  if (cap && *cap && isa_level() != IsaLevel::X86_64_V4) {
    flags.push_back(isa_level() == IsaLevel::X86_64_V3 ? "-march=x86-64-v3" : "-march=x86-64");
    flags.push_back("-mtune=native");
    return flags;
  }
#endif
  flags.push_back("-march=native");
  return flags;
}

struct ProcessResult {
  int spawn_error = 0;  // errno of a failed start, else 0
  int status = 0;       // waitpid status
  std::string output;   // stdout and stderr together
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& path, const char* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(size));
  out.close();
  if (!out) fail(PORTA_ERROR_BACKEND, "%s: cannot write %s", where("kernel_create").c_str(), path.c_str());
}

// Runs argv with stdout and stderr going to `log_path`; no shell in between.
ProcessResult run_process(const std::vector<std::string>& args, const std::string& log_path) {
  ProcessResult result;
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  result.spawn_error = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (result.spawn_error != 0) return result;
  while (waitpid(pid, &result.status, 0) < 0 && errno == EINTR) {
  }
  result.output = read_file(log_path);
  return result;
}

std::string describe_exit(const ProcessResult& r) {
  if (WIFEXITED(r.status)) return "exit status " + std::to_string(WEXITSTATUS(r.status));
  if (WIFSIGNALED(r.status)) return std::string("signal ") + strsignal(WTERMSIG(r.status));
  return "unknown status";
}

// A private directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/porta-cpu-XXXXXX";
    if (!mkdtemp(pattern.data())) {
      fail(PORTA_ERROR_BACKEND, "%s: cannot create a temporary directory %s: %s",
           where("kernel_create").c_str(), pattern.c_str(), std::strerror(errno));
    }
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct Compiler {
  std::vector<std::string> command;  // $PORTA_CXX split at spaces, else c++
  std::string display;
  std::string identity;  // its --version output: part of every cache key
};

// Looked up per call, kept per command: PORTA_CXX may change while the process runs.
Compiler compiler() {
  const char* env = std::getenv("PORTA_CXX");
  std::string display = env && *env ? env : "c++";
  static std::mutex mutex;
  static std::map<std::string, Compiler> known;
  std::lock_guard lock(mutex);
  auto it = known.find(display);
  if (it != known.end()) return it->second;
  Compiler c;
  c.display = display;
  std::istringstream words(c.display);
  for (std::string w; words >> w;) c.command.push_back(w);
  if (c.command.empty()) c.command.push_back("c++");
  TempDir dir;
  std::vector<std::string> args = c.command;
  args.push_back("--version");
  ProcessResult r = run_process(args, (dir.path() / "version.txt").string());
  c.identity = c.display + "\n" + (r.spawn_error ? std::string("unavailable") : r.output);
  return known.emplace(display, c).first->second;
}

// Opens a built kernel and checks it is the one asked for; on failure returns
// no entry, with the reason in *why, and leaves nothing open.
CompiledKernel try_load(const std::string& path, const porta_kernel_desc& desc, std::string* why) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* e = dlerror();
    *why = e ? e : "dlopen failed";
    return {};
  }
  auto* entry = static_cast<const porta_cpu_kernel_entry*>(dlsym(handle, PORTA_CPU_KERNEL_SYMBOL));
  auto* stack = static_cast<const uint64_t*>(dlsym(handle, PORTA_CPU_KERNEL_STACK_SYMBOL));
  if (!entry) {
    *why = "no symbol " PORTA_CPU_KERNEL_SYMBOL;
  } else if (!stack) {
    *why = "no symbol " PORTA_CPU_KERNEL_STACK_SYMBOL;
  } else if (entry->abi_version != PORTA_CPU_KERNEL_ABI_VERSION) {
    *why = plugin::format("kernel ABI version %u, expected %u", entry->abi_version,
                          PORTA_CPU_KERNEL_ABI_VERSION);
  } else if (!entry->run_group) {
    *why = "entry has no run_group";
  } else if (std::memcmp(entry->workgroup_size, desc.workgroup_size, sizeof desc.workgroup_size) != 0) {
    *why = plugin::format("work-group size %ux%ux%u, expected %ux%ux%u", entry->workgroup_size[0],
                          entry->workgroup_size[1], entry->workgroup_size[2], desc.workgroup_size[0],
                          desc.workgroup_size[1], desc.workgroup_size[2]);
  } else {
    return {entry, *stack};
  }
  dlclose(handle);
  return {};
}

// The stack one work-item may use, from the .su files -fstack-usage wrote in
// `dir`: every function's frame, summed. Kernels never recurse (SPIR-V has no
// recursion), so no call chain holds a frame twice and the sum bounds the
// deepest; what the kernel calls outside its object (libm) is left to the
// backend's margin. A frame the compiler could not bound (`dynamic`, which
// translated code does not make) counts at its static part, with a warning.
uint64_t stack_usage(const fs::path& dir, const char* kernel) {
  uint64_t total = 0;
  bool found = false;
  for (const fs::directory_entry& file : fs::directory_iterator(dir)) {
    if (file.path().extension() != ".su") continue;
    found = true;
    std::istringstream lines(read_file(file.path().string()));
    for (std::string line; std::getline(lines, line);) {
      // location:function <TAB> bytes <TAB> static | dynamic | dynamic,bounded
      const size_t qualifier = line.rfind('\t');
      if (qualifier == std::string::npos || qualifier == 0) continue;
      const size_t bytes = line.rfind('\t', qualifier - 1);
      if (bytes == std::string::npos) continue;
      total += std::strtoull(line.c_str() + bytes + 1, nullptr, 10);
      if (line.compare(qualifier + 1, std::string::npos, "dynamic") == 0)
        plugin::log(PORTA_LOG_WARN, std::string("cpu: kernel '") + kernel + "': a frame of unbounded size: " + line);
    }
  }
  if (!found)
    fail(PORTA_ERROR_COMPILE, "%s: kernel '%s': the C++ compiler wrote no stack usage (-fstack-usage)",
         where("kernel_create").c_str(), kernel);
  return total;
}

// Runs the compiler with `args`; fails with its log unless it succeeded.
void run_compiler(const Compiler& cxx, std::vector<std::string> args, const fs::path& dir, const char* kernel) {
  args.insert(args.begin(), cxx.command.begin(), cxx.command.end());
  ProcessResult r = run_process(args, (dir / "compile.log").string());
  if (r.spawn_error) {
    fail(PORTA_ERROR_COMPILE,
         "%s: kernel '%s': cannot run the C++ compiler '%s': %s (set PORTA_CXX to a C++17 compiler)",
         where("kernel_create").c_str(), kernel, cxx.display.c_str(), std::strerror(r.spawn_error));
  }
  if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0) {
    fail(PORTA_ERROR_COMPILE, "%s: kernel '%s': %s failed (%s):\n%s", where("kernel_create").c_str(), kernel,
         cxx.display.c_str(), describe_exit(r).c_str(), r.output.c_str());
  }
}

// Compiles `source` into the shared object `output` in two steps: the kernel
// into an object, its frames measured, then the object and the measure
// (PORTA_CPU_KERNEL_STACK_SYMBOL) into the library.
void build(const porta_kernel_desc& desc, std::string_view source, const std::string& output,
           const Compiler& cxx) {
  TempDir dir;
  for (size_t i = 0; i < kRuntimeHeaderCount; ++i) {
    write_file(dir.path() / kRuntimeHeaders[i].name, kRuntimeHeaders[i].data, kRuntimeHeaders[i].size);
  }
  const char* name = desc.name ? desc.name : "(unnamed)";
  const fs::path cpp = dir.path() / "kernel.cpp", object = dir.path() / "kernel.o";
  write_file(cpp, source.data(), source.size());
  std::vector<std::string> args = compile_flags();
  args.insert(args.end(),
              {"-fstack-usage", "-c", "-I", dir.path().string(), "-o", object.string(), cpp.string()});
  run_compiler(cxx, args, dir.path(), name);

  const fs::path stack = dir.path() / "stack.cpp";
  const std::string text = plugin::format(
      "#include <stdint.h>\nextern \"C\" __attribute__((visibility(\"default\"))) const uint64_t %s = %lluull;\n",
      PORTA_CPU_KERNEL_STACK_SYMBOL, static_cast<unsigned long long>(stack_usage(dir.path(), name)));
  write_file(stack, text.data(), text.size());
  args = compile_flags();
  args.insert(args.end(), {"-o", output, object.string(), stack.string()});
  run_compiler(cxx, args, dir.path(), name);
}

// Opens a kernel library from its bytes, written to a private temporary
// folder, so the bytes the cache checked (a checksum over the entry and its
// key) are the bytes dlopen maps: a cached library changed on disk is never
// run. (A fresh path each time: dlopen hands back an already loaded library
// of the same name.)
CompiledKernel load_bytes(const void* data, size_t size, const porta_kernel_desc& desc, std::string* why) {
  TempDir dir;
  const fs::path so = dir.path() / "kernel.so";
  write_file(so, static_cast<const char*>(data), size);
  return try_load(so.string(), desc, why);  // a loaded library keeps its mapping
}

// The kernel from the cache (host cache_load: checked against the entry's
// checksum), else built in a temporary folder and stored in the cache.
CompiledKernel build_and_load(const porta_kernel_desc& desc, std::string_view source, const std::string& key,
                              const Compiler& cxx) {
  const std::string name = desc.name ? desc.name : "(unnamed)";
  const porta_host_api* host = plugin::host();
  std::string why;
  void* cached = nullptr;
  size_t cached_size = 0;
  if (host && host->cache_load && host->cache_load(key.c_str(), &cached, &cached_size)) {
    const CompiledKernel kernel = load_bytes(cached, cached_size, desc, &why);
    std::free(cached);
    if (kernel.entry) {
      plugin::log(PORTA_LOG_DEBUG, "cpu: kernel '" + name + "' loaded from the cache: " + key);
      return kernel;
    }
    plugin::log(PORTA_LOG_WARN,
                "cpu: kernel '" + name + "': unusable cache entry " + key + " (" + why + "); rebuilding it");
  }
  TempDir dir;
  const std::string so = (dir.path() / "kernel.so").string();
  build(desc, source, so, cxx);
  const CompiledKernel kernel = try_load(so, desc, &why);
  if (!kernel.entry)
    fail(PORTA_ERROR_COMPILE, "%s: kernel '%s': built object unusable: %s", where("kernel_create").c_str(),
         name.c_str(), why.c_str());
  const std::string bytes = read_file(so);
  if (host && host->cache_store && host->cache_store(key.c_str(), bytes.data(), bytes.size()))
    plugin::log(PORTA_LOG_DEBUG, "cpu: kernel '" + name + "' compiled into the cache: " + key);
  return kernel;
}

}  // namespace

CompiledKernel compile_kernel(const porta_kernel_desc& desc, std::string_view source) {
  const Compiler cxx = compiler();
  std::string key_text = std::string(desc.cache_key ? desc.cache_key : "") + "\n" + cxx.identity + "\n";
  for (const std::string& f : compile_flags()) key_text += f + " ";
  // -march=native ties the object to this processor.
  key_text += "\n" + cpu_identity() + "\nkernel abi " + std::to_string(PORTA_CPU_KERNEL_ABI_VERSION);
  // The text too: a translator that changes its output without a version
  // bump must not meet objects built from the old output. Likewise the
  // runtime headers the text includes, which may change under the same text.
  for (size_t i = 0; i < kRuntimeHeaderCount; ++i) {
    key_text += "\n";
    key_text += kRuntimeHeaders[i].name;
    key_text += ' ';
    key_text += common::Hasher().add(kRuntimeHeaders[i].data, kRuntimeHeaders[i].size).hex();
  }
  key_text += "\n";
  key_text += source;
  std::string key = "cpu-" + common::Hasher().add(key_text).hex();

  // Threads asking for the same kernel at once share one build.
  static std::mutex mutex;
  static std::map<std::string, std::shared_future<CompiledKernel>> building;
  std::promise<CompiledKernel> promise;
  std::shared_future<CompiledKernel> pending;
  {
    std::lock_guard lock(mutex);
    auto it = building.find(key);
    if (it != building.end()) {
      pending = it->second;
    } else {
      building.emplace(key, promise.get_future().share());
    }
  }
  if (pending.valid()) return pending.get();
  try {
    promise.set_value(build_and_load(desc, source, key, cxx));
  } catch (...) {
    promise.set_exception(std::current_exception());
  }
  std::shared_future<CompiledKernel> done;
  {
    std::lock_guard lock(mutex);
    done = building[key];
    building.erase(key);
  }
  return done.get();
}

}  // namespace porta::cpu
