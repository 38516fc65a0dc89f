// porta-logreg: logistic regression trained on the device with
// porta::ops::logreg_step. A whole block of steps is one recorded sequence:
// the host reads the losses once per block, never once per step.
//
//   porta-logreg                              the classic 5-sample example
//   porta-logreg --samples N --features D --iterations K --lr R [--seed S]
//   porta-logreg --csv FILE                   rows of features, label last
//   porta-logreg --backend NAME|all           (or PORTA_BACKEND)
//   porta-logreg --dtype f16|bf16|int8        X stored narrower (int8: a scale per
//                                             feature); weights and sums float32
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "logreg_step/bound.hpp"
#include "porta/porta.hpp"
#include "porta/quantize.hpp"
#include "porta_cli.hpp"

namespace {

struct Options {
  std::string backend;
  std::string csv;
  uint64_t samples = 0;  // 0: the classic example (or the CSV file)
  uint64_t features = 8;
  uint64_t iterations = 0;  // 0: the default for the data
  double lr = 0.5;
  uint64_t seed = 1;
  uint64_t report_every = 0;  // 0: about ten reports
  bool generated = false;
  porta_dtype dtype = PORTA_DTYPE_FLOAT32;  // of X on the device
};

struct Data {
  uint64_t m = 0, d = 0;
  std::vector<float> x;  // m x d, row-major
  std::vector<float> y;  // m
  std::string name;
};

struct Result {
  std::string device;
  std::vector<float> w;
  float b = 0;
  float loss = 0;
  std::vector<std::pair<uint64_t, float>> losses;  // (iteration, loss)
  double ms_per_iteration = 0;
  bool ok = false;
  bool reference = false;  // trained on the reference device (porta's CPU backend)
  std::string error;
};

// Reads a whole number for `flag`; throws UsageError.
uint64_t parse_count(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end || errno || text[0] == '-')
    throw porta::cli::UsageError(flag + " wants a whole number, not '" + text + "'");
  return v;
}

// The options, read as text and checked once parsed (parse_count's messages).
struct RawOptions {
  std::string samples, features, iterations, seed, report_every, lr, dtype;
};

const char kDescription[] =
    "Trains logistic regression on the device with porta::ops::logreg_step and reports the loss,\n"
    "the training accuracy and the time per iteration. Without a data option: the classic\n"
    "example, 5 samples of 2 features. With --dtype f16, bf16 or int8 the features are kept in\n"
    "that type on the device (int8: symmetric, a scale per feature), the weights and sums in\n"
    "float32, and a float32 run on the same data is reported beside it.";

void declare(porta::cli::Command& command, Options& o, RawOptions& raw) {
  command.synopsis(
      "[--samples N --features D] [--csv FILE] [--iterations K] [--lr R] [--seed S]\n"
      "[--report-every N] [--backend NAME|all] [--dtype f32|f16|bf16|int8]");
  command.footer(
      "Exit status: 0 trained, 1 the data were refused, training failed, the backends disagree or\n"
      "the accuracy with --dtype is more than 0.5 points from float32's, 2 bad arguments.");
  CLI::App& app = command.app();
  app.add_option("--samples", raw.samples, "generated separable data: N samples (with --features)")
      ->type_name("N");
  app.add_option("--features", raw.features, "features of the generated data (default 8)")->type_name("D");
  app.add_option("--seed", raw.seed, "seed of the generated data (default 1)")->type_name("S");
  app.add_option("--csv", o.csv, "rows of features, the label (in [0, 1]) last; commas or blanks; # comments")
      ->type_name("FILE");
  app.add_option("--iterations", raw.iterations, "gradient steps (default 100 for generated data, else 1000)")
      ->type_name("K");
  app.add_option("--lr", raw.lr, "learning rate, finite and positive (default 0.5)")->type_name("R");
  app.add_option("--report-every", raw.report_every,
                 "read the loss back every N steps (default: about ten reports)")
      ->type_name("N");
  app.add_option("--dtype", raw.dtype,
                 "type of the features on the device: f32 (default), f16, bf16 or int8 (with a\n"
                 "float32 scale per feature); weights, gradient and sums stay float32")
      ->type_name("f32|f16|bf16|int8");
  app.add_option("--backend", o.backend,
                 "a device selector (default: PORTA_BACKEND, else the best device);\n"
                 "all: every available backend, compared with the reference (CPU) backend")
      ->type_name("NAME|all");
}

void finish(Options& o, const RawOptions& raw) {
  if (!raw.samples.empty()) {
    o.samples = parse_count("--samples", raw.samples);
    o.generated = true;
  }
  if (!raw.features.empty()) {
    o.features = parse_count("--features", raw.features);
    o.generated = true;
  }
  if (!raw.iterations.empty()) o.iterations = parse_count("--iterations", raw.iterations);
  if (!raw.seed.empty()) o.seed = parse_count("--seed", raw.seed);
  if (!raw.report_every.empty()) o.report_every = parse_count("--report-every", raw.report_every);
  if (!raw.dtype.empty() && !porta::dtype_from_name(raw.dtype, &o.dtype))
    throw porta::cli::UsageError("--dtype wants f32, f16, bf16 or int8, not '" + raw.dtype + "'");
  if (!raw.lr.empty()) {
    char* end = nullptr;
    o.lr = std::strtod(raw.lr.c_str(), &end);
    if (*end) throw porta::cli::UsageError("--lr wants a number, not '" + raw.lr + "'");
  }
}

Data classic() {
  // xi, xj -> y: y is xj, so the data are separable.
  Data d;
  d.name = "classic example (5 samples, 2 features)";
  d.m = 5;
  d.d = 2;
  const float xi[] = {0, 1, 1, 1, 1}, xj[] = {0, 0, 0, 1, 1}, y[] = {0, 0, 0, 1, 1};
  for (int i = 0; i < 5; ++i) {
    d.x.push_back(xi[i]);
    d.x.push_back(xj[i]);
    d.y.push_back(y[i]);
  }
  return d;
}

// Separable data: features ~ N(0, 1), label = [x . w* + b* > 0] for a random
// hyperplane (w*, b*).
Data generated(uint64_t m, uint64_t dim, uint64_t seed) {
  Data d;
  d.m = m;
  d.d = dim;
  d.name = "generated separable data (seed " + std::to_string(seed) + ")";
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> truth(dim);
  for (auto& v : truth) v = normal(rng);
  const float bias = 0.25f * normal(rng);
  d.x.resize(m * dim);
  d.y.resize(m);
  for (uint64_t i = 0; i < m; ++i) {
    double z = bias;
    for (uint64_t j = 0; j < dim; ++j) {
      float v = normal(rng);
      d.x[i * dim + j] = v;
      z += static_cast<double>(v) * truth[j];
    }
    d.y[i] = z > 0 ? 1.0f : 0.0f;
  }
  return d;
}

// Rows of numbers separated by commas or blanks; the last one is the label.
Data load_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open '" + path + "'");
  Data d;
  d.name = path;
  std::string line;
  uint64_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;  // blank line or comment
    for (char& c : line)
      if (c == ',' || c == ';' || c == '\t') c = ' ';
    std::istringstream fields(line);
    std::vector<float> row;
    std::string field;
    while (fields >> field) {
      char* end = nullptr;
      float v = std::strtof(field.c_str(), &end);  // accepts nan and inf: checked below, with the place
      if (*end)
        throw std::runtime_error(path + ":" + std::to_string(line_no) + ": '" + field + "' is not a number");
      row.push_back(v);
    }
    if (row.size() < 2)
      throw std::runtime_error(path + ":" + std::to_string(line_no) +
                               ": a row needs at least one feature and a label");
    if (d.d == 0) d.d = row.size() - 1;
    if (row.size() - 1 != d.d)
      throw std::runtime_error(path + ":" + std::to_string(line_no) + ": " + std::to_string(row.size() - 1) +
                               " features, but earlier rows have " + std::to_string(d.d));
    d.y.push_back(row.back());
    row.pop_back();
    d.x.insert(d.x.end(), row.begin(), row.end());
    ++d.m;
  }
  return d;
}

// Bad data are refused before anything is trained.
void check_data(const Data& d) {
  if (d.m == 0) throw std::runtime_error(d.name + ": m = 0, there are no samples");
  if (d.d == 0) throw std::runtime_error(d.name + ": d = 0, there are no features");
  for (uint64_t i = 0; i < d.m; ++i) {
    for (uint64_t j = 0; j < d.d; ++j)
      if (!std::isfinite(d.x[i * d.d + j]))
        throw std::runtime_error(d.name + ": X[" + std::to_string(i) + "][" + std::to_string(j) + "] is " +
                                 std::to_string(d.x[i * d.d + j]) + "; every feature must be finite");
    if (!std::isfinite(d.y[i]))
      throw std::runtime_error(d.name + ": y[" + std::to_string(i) + "] is " + std::to_string(d.y[i]) +
                               "; every label must be finite");
    if (d.y[i] < 0 || d.y[i] > 1)
      throw std::runtime_error(d.name + ": y[" + std::to_string(i) + "] is " + std::to_string(d.y[i]) +
                               "; labels must lie in [0, 1]");
  }
}

Result train(const std::string& selector, const Data& data, porta_dtype dtype, uint64_t iterations, float lr,
             uint64_t report_every, bool verbose) {
  Result r;
  porta::Device device = porta::open(selector);
  const porta::DeviceInfo info = device.info();
  r.device = std::string(info.backend) + ":" + std::to_string(info.index) + " (" + info.name + ")";
  r.reference = (info.flags & PORTA_DEVICE_FLAG_REFERENCE) != 0;
  if (verbose) std::printf("device: %s\n", r.device.c_str());

  const uint64_t m = data.m, d = data.d;
  const porta::EncodedMatrix encoded = porta::encode_matrix(data.x.data(), m, d, dtype);
  porta::Buffer xb = device.upload(encoded.bytes), yb = device.upload(data.y);
  porta::Buffer sb = device.upload(encoded.scale.empty() ? std::vector<float>{0} : encoded.scale);
  porta::Buffer wb = device.buffer(d * sizeof(float)), bb = device.buffer(sizeof(float));
  const uint64_t block = std::min(report_every, iterations);
  porta::Buffer lossb = device.buffer(block * sizeof(float));
  porta::Buffer work = device.buffer(porta::ops::logreg_workspace_bytes(device, m, d));
  porta::Tensor x = encoded.tensor(xb), y(yb, {m}), w(wb, {d}), b(bb, {1}),
                ws(work, {work.size() / sizeof(float)});
  porta::Tensor scale(sb, {d});
  const porta::Tensor* x_scale = encoded.scale.empty() ? nullptr : &scale;

  porta::Stream stream = device.stream();
  porta::ops::fill(stream, w, 0.0f);
  porta::ops::fill(stream, b, 0.0f);
  stream.sync();

  // One block of steps, recorded once: step k writes its loss to loss[k].
  auto record = [&](uint64_t steps) {
    stream.begin_record();
    for (uint64_t k = 0; k < steps; ++k)
      porta::ops::logreg_step_scaled(stream, x, x_scale, y, w, b, lr, porta::Tensor(lossb, {1}, k), &ws);
    return stream.end_record();
  };
  porta::Sequence full = record(block);
  porta::Sequence tail;
  if (iterations % block) tail = record(iterations % block);

  std::vector<float> losses(block);
  double ms = 0;
  for (uint64_t done = 0; done < iterations;) {
    const uint64_t steps = std::min(block, iterations - done);
    porta::Event start = stream.record_event();
    stream.replay(steps == block ? full : tail);
    porta::Event end = stream.record_event();
    stream.read(lossb, std::span<float>(losses.data(), steps));
    stream.sync();
    ms += start.elapsed_ms(end);
    for (uint64_t k = 0; k < steps; ++k)
      if (!std::isfinite(losses[k])) {
        char why[256];
        std::snprintf(why, sizeof why,
                      "the loss became %g at iteration %llu (learning rate %g too large for these data?); "
                      "no model to report",
                      static_cast<double>(losses[k]), static_cast<unsigned long long>(done + k + 1),
                      static_cast<double>(lr));
        r.error = why;
        return r;
      }
    done += steps;
    r.losses.push_back({done, losses[steps - 1]});
    if (verbose)
      std::printf("  iteration %8llu  loss %.7f\n", static_cast<unsigned long long>(done), losses[steps - 1]);
  }
  r.ms_per_iteration = ms / static_cast<double>(iterations);
  r.w = device.download<float>(wb);
  r.b = device.download<float>(bb)[0];
  r.loss = r.losses.back().second;
  for (float v : r.w)
    if (!std::isfinite(v)) {
      r.error = "the weights became non-finite; no model to report";
      return r;
    }
  if (!std::isfinite(r.b)) {
    r.error = "the bias became non-finite; no model to report";
    return r;
  }
  r.ok = true;
  return r;
}

double sigmoid(double z) { return z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z)); }

double predict(const Data& data, const Result& r, uint64_t i) {
  double z = r.b;
  for (uint64_t j = 0; j < data.d; ++j) z += static_cast<double>(data.x[i * data.d + j]) * r.w[j];
  return sigmoid(z);
}

uint64_t correct_count(const Data& data, const Result& r) {
  uint64_t correct = 0;
  for (uint64_t i = 0; i < data.m; ++i) correct += (predict(data, r, i) >= 0.5) == (data.y[i] >= 0.5);
  return correct;
}

void print_weights(const Result& r, uint64_t limit) {
  std::printf("w = {");
  for (size_t j = 0; j < r.w.size() && j < limit; ++j) std::printf("%s%.6f", j ? ", " : "", r.w[j]);
  if (r.w.size() > limit) std::printf(", ... (%zu weights)", r.w.size());
  std::printf("}\nb = %.6f\n", r.b);
}

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

}  // namespace

int main(int argc, char** argv) {
  porta::cli::Command command("porta-logreg", kDescription, porta_version());
  Options o;
  RawOptions raw;
  declare(command, o, raw);
  // Bad option values are reported as bad arguments (2), any other failure as 1.
  return command.run(argc, argv, [&] {
    finish(o, raw);
    if (!std::isfinite(o.lr))
      throw std::runtime_error("the learning rate --lr " + std::to_string(o.lr) + " is not finite");
    if (o.lr <= 0)
      throw std::runtime_error("the learning rate --lr must be positive, not " + std::to_string(o.lr));
    Data data;
    if (!o.csv.empty())
      data = load_csv(o.csv);
    else if (o.generated)
      data = generated(o.samples, o.features, o.seed);
    else
      data = classic();
    check_data(data);
    const uint64_t iterations = o.iterations ? o.iterations : (o.generated ? 100 : 1000);
    const uint64_t report_every = o.report_every ? o.report_every : std::max<uint64_t>(1, iterations / 10);
    const float lr = static_cast<float>(o.lr);

    if (o.backend == "all") return run_all(data, o.dtype, iterations, lr, report_every);

    std::printf("%s: m = %llu samples, d = %llu features (X %s); %llu iterations, lr %g\n", data.name.c_str(),
                static_cast<unsigned long long>(data.m), static_cast<unsigned long long>(data.d),
                porta::dtype_short_name(o.dtype), static_cast<unsigned long long>(iterations), o.lr);
    Result r = train(o.backend, data, o.dtype, iterations, lr, report_every, true);
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
    if (data.m <= 16) {
      std::printf("predictions:\n");
      for (uint64_t i = 0; i < data.m; ++i) {
        std::printf("  x = (");
        for (uint64_t j = 0; j < data.d; ++j) std::printf("%s%g", j ? ", " : "", data.x[i * data.d + j]);
        const double p = predict(data, r, i);
        std::printf(")  p = %.4f  class %d  label %g  %s\n", p, p >= 0.5, data.y[i],
                    (p >= 0.5) == (data.y[i] >= 0.5) ? "ok" : "WRONG");
      }
    }
    if (!o.generated && o.csv.empty() && correct != data.m) {
      std::fprintf(stderr, "porta-logreg: the classic example was not classified correctly\n");
      return 1;
    }
    if (!within) {
      std::fprintf(stderr,
                   "porta-logreg: %s features lose more than 0.5 points of accuracy against float32\n",
                   porta::dtype_short_name(o.dtype));
      return 1;
    }
    return 0;
  });
}
