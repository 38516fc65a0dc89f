// porta-logreg: logistic regression trained on the device with
// porta::ops::logreg_step. A whole block of steps is one recorded sequence:
// the host reads the losses once per block, never once per step.
//
//   porta-logreg                              the classic 5-sample example
//   porta-logreg --samples N --features D --iterations K --lr R [--seed S]
//   porta-logreg --data FILE                  CSV, NPY or LIBSVM (tools/data)
//   porta-logreg --backend NAME|all           (or PORTA_BACKEND)
//   porta-logreg --dtype f16|bf16|int8        X stored narrower (int8: a scale per
//                                             feature); weights and sums float32
//   porta-logreg predict --load-model M --data FILE [--out FILE]
//   porta-logreg --devices cpu,vulkan,opencl|all [--device-memory BYTES]
//   mpirun -np N porta-logreg ...             the rows split over the ranks
//
// The pieces: options.* (the command line), data.* (the samples, the split,
// the standardisation), train.* (the training loop on one device), model.*
// (the model file), progress.* (the line on a terminal), report.* (what is
// printed, and predict), parallel.* (several devices, streaming, MPI ranks;
// mpi_ranks.* the MPI module).
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "data.hpp"
#include "model.hpp"
#include "mpi_ranks.hpp"
#include "options.hpp"
#include "parallel.hpp"
#include "porta_data/file.hpp"
#include "report.hpp"

using namespace logreg_tool;

namespace {

// MPI ranks streaming one file: each reads its own rows (data.hpp, Share).
Share share(const Options& o) {
  const Ranks& r = ranks();
  Share s;
  if (r.size == 1) return s;
  s.rank = r.rank;
  s.size = r.size;
  s.test_fraction = o.test_fraction;
  s.seed = o.seed;
  auto check = [&r](int status) {
    if (status) throw std::runtime_error(std::string("MPI_Allgather failed: ") + r.api->error_text(status));
  };
  s.sum = [check, &r](double* values, int count) { check(r.api->allgather_sum(values, count)); };
  s.max = [check, &r](uint64_t value) {
    std::vector<uint64_t> all(static_cast<size_t>(r.size));
    check(r.api->allgather_u64(&value, 1, all.data()));
    return *std::max_element(all.begin(), all.end());
  };
  return s;
}

// Several MPI ranks training on a data file (not --backend all): each reads
// its own rows alone, as when streaming, also without --device-memory.
bool ranks_read_own_rows(const Options& o) {
  struct stat st {};
  return ranks().size > 1 && o.mode == Mode::train && !o.data.empty() && o.backend != "all" &&
         ::stat(o.data.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

int main(int argc, char** argv) {
  porta::cli::Command command("porta-logreg", kDescription, porta_version());
  Options o;
  RawOptions raw;
  declare(command, o, raw);
  // Bad option values are reported as bad arguments (2), any other failure as 1.
  return command.run(argc, argv, [&] {
    const Ranks& r = ranks();  // MPI, when a launcher started us: before anything is printed
    finish(o, raw);
    auto run = [&] {
      // A model or predictions file that cannot be written is found before the work.
      for (const std::string& out : {o.save_model, o.out})
        if (!out.empty() && !porta::cli::is_stdout(out)) porta::data::check_writable(out);
      if (o.mode == Mode::predict) return run_predict(o);
      Data data;
      if (streams_from_file(o) || ranks_read_own_rows(o))
        data = open_rows(o.data, o.read, o.row_cache, share(o));
      else if (!o.data.empty())
        data = load(o.data, o.read);
      else if (o.generated)
        data = generated(o.samples, o.features, o.seed);
      else
        data = classic();
      check_data(data);
      const uint64_t features = data.d;
      const std::string name = data.name;
      Split parts = split(std::move(data), o.test_fraction, o.seed);
      // A loaded model brings the standardisation its weights expect; else file
      // data are standardised with the training rows' statistics.
      Model start;
      Standardization standardization;
      if (!o.load_model.empty()) {
        start = load_model(o.load_model);
        if (start.features != features)
          throw std::runtime_error(o.load_model + " has " + std::to_string(start.features) + " features; " +
                                   name + " has " + std::to_string(features));
        standardization = start.standardization;
      } else if (!o.data.empty() && o.standardize) {
        standardization = Standardization::fit(parts.train);
      }
      standardization.apply(parts.train);
      standardization.apply(parts.test);
      const uint64_t iterations = o.iterations ? o.iterations : (o.generated ? 100 : 1000);
      const uint64_t report_every = o.report_every ? o.report_every : std::max<uint64_t>(1, iterations / 10);
      const float lr = static_cast<float>(o.lr);

      if (o.backend == "all") return run_all(parts.train, o.dtype, iterations, lr, report_every);
      return run_one(o, parts, standardization, o.load_model.empty() ? nullptr : &start, iterations, lr,
                     report_every);
    };
    try {
      return run();
    } catch (const std::exception& e) {
      // The other ranks would wait in a collective (each reads its own rows:
      // a bad row stops one of them): end them all.
      if (r.size > 1) {
        std::fprintf(stderr, "porta-logreg: MPI rank %d: %s\n", r.rank, e.what());
        std::fflush(stderr);
        r.api->abort(1);
      }
      throw;
    }
  });
}
