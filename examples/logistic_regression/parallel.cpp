#include "parallel.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_ranks.hpp"
#include "porta/parallel.hpp"

namespace logreg_tool {

namespace {

// A launcher's variables: OpenMPI's mpirun, PMI-2 and PMIx (srun).
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

const MpiApi* load_mpi() {
  char exe[PATH_MAX] = {};
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  std::string dir = n > 0 ? std::string(exe, static_cast<size_t>(n)) : std::string();
  dir = dir.substr(0, dir.rfind('/') + 1);
  std::string tried;
  const std::string modules = PORTA_LOGREG_MPI_MODULES;
  for (size_t at = 0; at <= modules.size();) {
    const size_t end = std::min(modules.find(':', at), modules.size());
    const std::string path = dir + modules.substr(at, end - at);
    at = end + 1;
    if (void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
      auto entry = reinterpret_cast<const MpiApi* (*)()>(dlsym(handle, "porta_logreg_mpi"));
      if (entry) return entry();
    }
    tried += "\n  " + path + ": " + (dlerror() ? dlerror() : "no porta_logreg_mpi");
  }
  throw std::runtime_error(
      "an MPI launcher started porta-logreg, but its MPI module could not be loaded (built with "
      "-DPORTA_MPI=ON where OpenMPI's libopenmpi-dev is installed; run where libmpi is):" +
      tried);
}

}  // namespace

const Ranks& ranks() {
  static const Ranks r = [] {
    Ranks r;
    if (!launched_by_mpi()) return r;
    r.api = load_mpi();
    const int status = r.api->init(&r.rank, &r.size, &r.local_rank);
    if (status) throw std::runtime_error(std::string("MPI_Init failed: ") + r.api->error_text(status));
    static const MpiApi* api = r.api;
    std::atexit([] { api->finalize(); });
    // Rank 0 speaks for the job.
    if (r.rank != 0 && !std::freopen("/dev/null", "w", stdout))
      throw std::runtime_error("rank " + std::to_string(r.rank) + ": cannot silence stdout");
    return r;
  }();
  return r;
}

bool parallel_wanted(const Options& o) { return !o.devices.empty() || o.device_memory || ranks().size > 1; }

bool streams_from_file(const Options& o) {
  struct stat st {};
  return o.mode == Mode::train && o.device_memory && !o.data.empty() && o.backend != "all" &&
         ::stat(o.data.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

namespace {

std::string device_name(const porta::Device& device) {
  const porta::DeviceInfo info = device.info();
  return std::string(info.backend) + ":" + std::to_string(info.index) + " (" + info.name + ")";
}

// --devices: selectors separated by commas, or all (every device of every
// available backend). Without it, --backend's device; several ranks on one
// node take their backend's devices in turn by local rank, unless PORTA_DEVICE
// names one.
std::vector<porta::Device> open_devices(const Options& o, const Ranks& r) {
  std::vector<porta::Device> devices;
  if (o.devices == "all") {
    for (const porta::DeviceInfo& info : porta::devices())
      devices.push_back(porta::open(std::string(info.backend) + ":" + std::to_string(info.index)));
  } else if (!o.devices.empty()) {
    for (size_t at = 0; at <= o.devices.size();) {
      const size_t end = std::min(o.devices.find(',', at), o.devices.size());
      const std::string selector = o.devices.substr(at, end - at);
      at = end + 1;
      if (selector.empty()) throw porta::cli::UsageError("--devices '" + o.devices + "' has an empty entry");
      devices.push_back(porta::open(selector));
    }
  } else if (r.size > 1 && !std::getenv("PORTA_DEVICE")) {
    const std::string backend = porta::open(o.backend).info().backend;
    uint32_t count = 0;
    for (const porta::DeviceInfo& info : porta::devices()) count += backend == info.backend;
    devices.push_back(
        porta::open(backend + ":" + std::to_string(r.local_rank % std::max<uint32_t>(count, 1))));
  } else {
    devices.push_back(porta::open(o.backend));
  }
  if (devices.empty()) throw std::runtime_error("--devices " + o.devices + ": no device is available");
  return devices;
}

}  // namespace

Result train_parallel(const Options& o, const Data& data, uint64_t iterations, float lr,
                      uint64_t report_every, bool verbose, const Hooks& hooks) {
  const Ranks& r = ranks();
  const uint64_t m = data.m, d = data.d;
  // Every rank must hold the same data: each takes its share of the rows.
  if (r.size > 1) {
    const uint64_t mine[2] = {m, d};
    std::vector<uint64_t> all(2 * static_cast<size_t>(r.size));
    if (const int status = r.api->allgather_u64(mine, 2, all.data()))
      throw std::runtime_error(std::string("MPI_Allgather failed: ") + r.api->error_text(status));
    for (int k = 1; k < r.size; ++k)
      if (all[2 * k] != all[0] || all[2 * k + 1] != all[1])
        throw std::runtime_error("MPI rank " + std::to_string(k) + " has " + std::to_string(all[2 * k]) +
                                 " x " + std::to_string(all[2 * k + 1]) + " training samples, rank 0 has " +
                                 std::to_string(all[0]) + " x " + std::to_string(all[1]) +
                                 ": every rank must read the same data");
  }
  const uint64_t first = m * static_cast<uint64_t>(r.rank) / static_cast<uint64_t>(r.size);
  const uint64_t rows = m * (static_cast<uint64_t>(r.rank) + 1) / static_cast<uint64_t>(r.size) - first;

  std::vector<porta::Device> devices = open_devices(o, r);
  porta::parallel::Options po;
  po.iterations = static_cast<uint32_t>(iterations);
  po.lr = lr;
  po.device_memory = o.device_memory;
  po.continue_on_failure = o.keep_going;
  if (hooks.w0) po.w0 = *hooks.w0;
  po.b0 = hooks.b0;
  if (r.size > 1)
    po.combine = [&r](double* sums, uint32_t count) {
      if (const int status = r.api->allgather_sum(sums, static_cast<int>(count)))
        throw std::runtime_error(std::string("MPI_Allgather failed: ") + r.api->error_text(status));
    };

  Result res;
  for (size_t i = 0; i < devices.size(); ++i) res.device += (i ? ", " : "") + device_name(devices[i]);
  porta::parallel::Result got;
  try {
    if (data.streamed()) {
      // Rows from the file: read and converted by the trainer's reader threads, chunks ahead.
      const porta::parallel::Reader read = [&](uint64_t at, uint64_t count, float* x, float* y) {
        data.file_rows->read(first + at, count, x, y);
      };
      got = porta::parallel::train_logreg(devices, read, rows, d, po);
    } else {
      got = porta::parallel::train_logreg(devices, data.x.data() + first * d, data.y.data() + first, rows, d,
                                          po);
    }
  } catch (const std::exception& e) {
    if (r.size > 1) {
      // The other ranks wait in a collective: end them all.
      std::fprintf(stderr, "porta-logreg: MPI rank %d: %s\n", r.rank, e.what());
      r.api->abort(1);
    }
    res.error = e.what();
    return res;
  }
  // Time per iteration: the median, so that the first (kernels built, data
  // loaded) and those that move rows between devices do not count.
  std::vector<double> times = got.iteration_ms;
  std::nth_element(times.begin(), times.begin() + static_cast<long>(times.size() / 2), times.end());
  res.w = got.w;
  res.b = got.b;
  res.loss = got.losses.back();
  res.ms_per_iteration = times[times.size() / 2];
  for (uint64_t k = report_every; k <= iterations; k += report_every)
    res.losses.push_back({k, got.losses[k - 1]});
  if (iterations % report_every) res.losses.push_back({iterations, got.losses.back()});
  if (verbose)
    for (const auto& [k, loss] : res.losses)
      std::printf("  iteration %8llu  loss %.7f\n", static_cast<unsigned long long>(k), loss);
  if (hooks.on_block) hooks.on_block(iterations, res.loss);
  if (r.size > 1)
    std::printf("MPI: %d ranks, %llu of %llu rows on rank 0, sums gathered in rank order\n", r.size,
                static_cast<unsigned long long>(rows), static_cast<unsigned long long>(m));
  std::printf("%-48s %10s %7s %14s %7s  %s\n", "device", "rows", "share", "rows/s", "chunks", "status");
  for (size_t i = 0; i < devices.size(); ++i) {
    const porta_parallel_device_report& rep = got.devices[i];
    std::printf("%-48s %10llu %6.1f%% %14.4g %7llu  %s\n", device_name(devices[i]).substr(0, 48).c_str(),
                static_cast<unsigned long long>(rep.rows),
                100.0 * static_cast<double>(rep.rows) / static_cast<double>(rows), rep.rows_per_second,
                static_cast<unsigned long long>(rep.chunks),
                rep.status != PORTA_SUCCESS ? "dropped out"
                : rep.rows == 0             ? "left out (it would save under 5% of a step)"
                                            : "ok");
  }
  res.ok = true;
  return res;
}

}  // namespace logreg_tool
