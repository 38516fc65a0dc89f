#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "logreg_step/bound.hpp"
#include "parallel.hpp"
#include "porta/quantize.hpp"
#include "porta_data/file.hpp"
#include "progress.hpp"

namespace logreg_tool {

namespace {

double sigmoid(double z) { return z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z)); }

}  // namespace

namespace {

double probability(const float* x, uint64_t d, const Result& r) {
  double z = r.b;
  for (uint64_t j = 0; j < d; ++j) z += static_cast<double>(x[j]) * r.w[j];
  return sigmoid(z);
}

}  // namespace

double predict(const Data& data, const Result& r, uint64_t i) {
  return probability(data.x.data() + i * data.d, data.d, r);
}

uint64_t correct_count(const Data& data, const Result& r) {
  uint64_t correct = 0;
  for_each_rows(data, [&](const float* x, const float* y, uint64_t, uint64_t count) {
    for (uint64_t i = 0; i < count; ++i)
      correct += (probability(x + i * data.d, data.d, r) >= 0.5) == (y[i] >= 0.5);
  });
  double all = static_cast<double>(correct);  // exact below 2^53
  sum_over_processes(data, &all, 1);
  return static_cast<uint64_t>(all);
}

namespace {

void print_weights(const Result& r, uint64_t limit) {
  std::printf("w = {");
  for (size_t j = 0; j < r.w.size() && j < limit; ++j) std::printf("%s%.6f", j ? ", " : "", r.w[j]);
  if (r.w.size() > limit) std::printf(", ... (%zu weights)", r.w.size());
  std::printf("}\nb = %.6f\n", r.b);
}

}  // namespace

int run_all(const Data& data, porta_dtype dtype, uint64_t iterations, float lr, uint64_t report_every) {
  std::vector<std::string> names;
  for (const auto& be : porta::backends())
    if (be.available)
      names.push_back(be.name);
    else
      std::printf("%-8s unavailable: %s\n", be.name.c_str(), be.reason.c_str());
  if (names.empty()) throw std::runtime_error("no backend is available");
  std::vector<Result> results;
  for (const auto& n : names) {
    try {
      results.push_back(train(n, data, dtype, iterations, lr, report_every, false));
    } catch (const porta::Error& e) {
      Result r;
      r.device = n;
      r.error = e.what();
      results.push_back(r);
    }
  }
  // The reference is the reference device (porta's CPU backend) when it ran, else the first that did.
  const Result* ref = nullptr;
  for (const Result& r : results)
    if (r.ok && (!ref || r.reference)) ref = &r;
  if (!ref) {
    for (const auto& r : results) std::fprintf(stderr, "%s: %s\n", r.device.c_str(), r.error.c_str());
    return 1;
  }
  // Every backend reads the same stored features: the bound is taken on them.
  const std::vector<float> features = porta::encode_matrix(data.x.data(), data.m, data.d, dtype).decoded();
  const porta::logreg::Tolerance tol =
      porta::logreg::agreement_tolerance(features, data.m, data.d, ref->w, ref->b, ref->loss, iterations, lr);
  std::printf("%s, X %s, %llu iterations, lr %g; reference: %s\n", data.name.c_str(),
              porta::dtype_short_name(dtype), static_cast<unsigned long long>(iterations), lr,
              ref->device.c_str());
  std::printf(
      "tolerance (worst case, kernels/logreg_step/bound.hpp): |dw| <= %.3g, |db| <= %.3g, "
      "|dloss| <= %.3g\n",
      tol.w, tol.b, tol.loss);
  std::printf("%-44s %12s %12s %12s %10s %10s %10s %10s  %s\n", "device", "w[0]", "b", "loss", "max|dw|",
              "|db|", "|dloss|", "ms/iter", "agrees");
  bool all = true;
  for (const auto& r : results) {
    if (!r.ok) {
      std::printf("%-44s failed: %s\n", r.device.c_str(), r.error.c_str());
      all = false;
      continue;
    }
    double dw = 0;
    for (size_t j = 0; j < r.w.size(); ++j)
      dw = std::max(dw, std::fabs(static_cast<double>(r.w[j]) - ref->w[j]));
    const double db = std::fabs(static_cast<double>(r.b) - ref->b);
    const double dl = std::fabs(static_cast<double>(r.loss) - ref->loss);
    const bool agrees = dw <= tol.w && db <= tol.b && dl <= tol.loss;
    all = all && agrees;
    std::printf("%-44s %12.6f %12.6f %12.7f %10.2e %10.2e %10.2e %10.4f  %s\n",
                r.device.substr(0, 44).c_str(), r.w[0], r.b, r.loss, dw, db, dl, r.ms_per_iteration,
                agrees ? "yes" : "NO");
  }
  if (!all) std::fprintf(stderr, "porta-logreg: the backends do not agree within the tolerance\n");
  return all ? 0 : 1;
}

int run_one(const Options& o, const Split& parts, const Standardization& standardization, const Model* start,
            uint64_t iterations, float lr, uint64_t report_every) {
  const Data& data = parts.train;
  std::printf("%s: m = %llu samples, d = %llu features (X %s); %llu iterations, lr %g\n", data.name.c_str(),
              static_cast<unsigned long long>(data.m), static_cast<unsigned long long>(data.d),
              porta::dtype_short_name(o.dtype), static_cast<unsigned long long>(iterations), o.lr);
  if (data.streamed()) {
    const porta::data::RowFile& file = *data.file_rows->file;
    // Text is parsed, NPY other than float32 in C order converted.
    const std::string once = file.format() == porta::data::Format::npy ? "converted" : "parsed";
    const std::string how = file.cached_in_file()
                                ? once + " once into a row cache in a file in " + file.cache_folder()
                            : file.cached() ? once + " once into a row cache in host memory"
                            : file.mapped() ? std::string("mapped")
                                            : once + " on every pass";
    if (o.device_memory)
      std::printf(
          "rows read from %s a chunk at a time as training needs them (--device-memory), not held whole in "
          "device memory: %s\n",
          o.data.c_str(), how.c_str());
    else
      std::printf("rows read from %s into device memory, each MPI rank its own: %s\n", o.data.c_str(),
                  how.c_str());
    const porta::data::RowRange part = file.part();
    if (part.count != file.rows())
      std::printf(
          "MPI rank %d reads, checks and caches its own rows alone: rows %llu to %llu of the file's %llu\n",
          ranks().rank, static_cast<unsigned long long>(part.first),
          static_cast<unsigned long long>(part.first + part.count),
          static_cast<unsigned long long>(file.rows()));
  }
  if (!standardization.empty())
    std::printf("standardised: each feature's mean and standard deviation from the %llu training rows%s\n",
                static_cast<unsigned long long>(data.m), start ? " (the loaded model's)" : "");
  Hooks hooks;
  if (start) {
    hooks.w0 = &start->w;
    hooks.b0 = start->b;
  }
  Result r;
  {
    // On a terminal the progress line stands in for the per-block loss lines.
    Progress progress(data.m, iterations);
    hooks.on_block = [&](uint64_t done, float loss) { progress.update(done, loss); };
    // Several devices, a device-memory cap or MPI ranks: porta/parallel.h
    // (parallel.*); so are float32 features larger than the device's largest
    // buffer, which it holds in several.
    porta::Device device;
    if (!parallel_wanted(o)) device = porta::open(o.backend);
    const bool beyond_one_buffer = device && o.dtype == PORTA_DTYPE_FLOAT32 &&
                                   data.m * data.d * sizeof(float) > device.info().limits.max_buffer_bytes;
    if (!device || beyond_one_buffer) {
      device = {};  // train_parallel opens the devices it uses
      r = train_parallel(o, data, iterations, lr, report_every, !progress.shown(), hooks);
    } else {
      r = train(device, data, o.dtype, iterations, lr, report_every, !progress.shown(), hooks);
    }
  }
  if (!r.ok) {
    std::fprintf(stderr, "porta-logreg: %s\n", r.error.c_str());
    return 1;
  }
  std::printf("trained: ");
  print_weights(r, 8);
  const uint64_t correct = correct_count(data, r);
  const double seconds = r.ms_per_iteration / 1e3;
  const uint64_t element = porta_dtype_size(o.dtype);
  const double bytes =
      static_cast<double>(data.m) * static_cast<double>(data.d) * static_cast<double>(element);
  std::printf("final loss %.7f, accuracy %.2f%% (%llu of %llu), X %s\n", r.loss, 100.0 * correct / data.m,
              static_cast<unsigned long long>(correct), static_cast<unsigned long long>(data.m),
              porta::dtype_short_name(o.dtype));
  std::printf("time per iteration %.4f ms, X read at %.2f GB/s (m*d*%llu bytes per iteration)\n",
              r.ms_per_iteration, seconds > 0 ? bytes / seconds / 1e9 : 0.0,
              static_cast<unsigned long long>(element));
  bool within = true;
  if (o.dtype != PORTA_DTYPE_FLOAT32) {
    // The same training with float32 features on the same device, beside it.
    Result f32 = train(o.backend, data, PORTA_DTYPE_FLOAT32, iterations, lr, report_every, false);
    if (!f32.ok) {
      std::fprintf(stderr, "porta-logreg: the float32 run failed: %s\n", f32.error.c_str());
      return 1;
    }
    const uint64_t f32_correct = correct_count(data, f32);
    const double points = 100.0 * (static_cast<double>(correct) - static_cast<double>(f32_correct)) /
                          static_cast<double>(data.m);
    within = std::fabs(points) <= 0.5;
    std::printf(
        "float32 X: accuracy %.2f%%, loss %.7f, %.4f ms per iteration; %s X: %+.2f points, "
        "%.2fx the float32 step's speed (%s)\n",
        100.0 * f32_correct / data.m, f32.loss, f32.ms_per_iteration, porta::dtype_short_name(o.dtype),
        points, r.ms_per_iteration > 0 ? f32.ms_per_iteration / r.ms_per_iteration : 0.0,
        within ? "within 0.5 points" : "MORE than 0.5 points apart");
  }
  if (data.m <= 16 && ranks().size == 1) {
    const Data shown = in_memory(parts.train);
    const Data& data = shown;
    std::printf("predictions:\n");
    for (uint64_t i = 0; i < data.m; ++i) {
      std::printf("  x = (");
      for (uint64_t j = 0; j < data.d; ++j) std::printf("%s%g", j ? ", " : "", data.x[i * data.d + j]);
      const double p = predict(data, r, i);
      std::printf(")  p = %.4f  class %d  label %g  %s\n", p, p >= 0.5, data.y[i],
                  (p >= 0.5) == (data.y[i] >= 0.5) ? "ok" : "WRONG");
    }
  }
  if (parts.test.m) {
    const uint64_t test_correct = correct_count(parts.test, r);
    std::printf("test accuracy %.2f%% (%llu of %llu held-out rows, --test-fraction %g, seed %llu)\n",
                100.0 * static_cast<double>(test_correct) / static_cast<double>(parts.test.m),
                static_cast<unsigned long long>(test_correct), static_cast<unsigned long long>(parts.test.m),
                o.test_fraction, static_cast<unsigned long long>(o.seed));
  }
  // Rows trained in place in their file's mapping: the file must not have
  // changed under the training and the accuracies (nothing is written then).
  parts.train.x.check_unchanged();
  parts.test.x.check_unchanged();
  // Every rank holds the same weights; rank 0 writes them.
  if (!o.save_model.empty() && ranks().rank == 0) {
    Model model;
    model.features = data.d;
    model.w = r.w;
    model.b = r.b;
    model.standardization = standardization;
    model.feature_names = data.feature_names;
    model.porta_version = porta_version();
    model.device = r.device;
    model.data = o.data.empty() ? data.name : o.data;
    model.samples = data.m;
    model.iterations = iterations + (start ? start->iterations : 0);
    model.lr = lr;
    model.loss = r.loss;
    save_model(o.save_model, model);
    std::printf("model written to %s\n", o.save_model.c_str());
  }
  if (!o.generated && o.data.empty() && correct != data.m) {
    std::fprintf(stderr, "porta-logreg: the classic example was not classified correctly\n");
    return 1;
  }
  if (!within) {
    std::fprintf(stderr, "porta-logreg: %s features lose more than 0.5 points of accuracy against float32\n",
                 porta::dtype_short_name(o.dtype));
    return 1;
  }
  return 0;
}

int run_predict(const Options& o) {
  const Model model = load_model(o.load_model);
  porta::data::ReadOptions read = o.read;
  read.features = model.features;
  read.labels = porta::data::ReadOptions::Labels::by_count;
  Data data = load(o.data, read);
  if (data.d != model.features)
    throw std::runtime_error(o.data + ": " + std::to_string(data.d) + " features; the model " + o.load_model +
                             " has " + std::to_string(model.features));
  model.standardization.apply(data);
  std::string csv = "probability,class\n";
  uint64_t correct = 0;
  char line[64];
  for (uint64_t i = 0; i < data.m; ++i) {
    const double p = model.probability(data.x.data() + i * data.d);
    std::snprintf(line, sizeof line, "%.9g,%d\n", p, p >= 0.5);
    csv += line;
    if (!data.y.empty()) correct += (p >= 0.5) == (data.y[i] >= 0.5);
  }
  if (porta::cli::is_stdout(o.out))
    std::fputs(csv.c_str(), stdout);
  else
    porta::data::write_file_atomically(o.out, csv);
  // The accuracy goes where the predictions do not.
  FILE* note = porta::cli::is_stdout(o.out) ? stderr : stdout;
  std::fflush(stdout);
  if (!data.y.empty())
    std::fprintf(note, "predicted %llu rows of %s: accuracy %.2f%% (%llu of %llu)\n",
                 static_cast<unsigned long long>(data.m), o.data.c_str(),
                 100.0 * static_cast<double>(correct) / static_cast<double>(data.m),
                 static_cast<unsigned long long>(correct), static_cast<unsigned long long>(data.m));
  else
    std::fprintf(note, "predicted %llu rows of %s (no labels)\n", static_cast<unsigned long long>(data.m),
                 o.data.c_str());
  if (!porta::cli::is_stdout(o.out)) std::fprintf(note, "predictions written to %s\n", o.out.c_str());
  return 0;
}

}  // namespace logreg_tool
