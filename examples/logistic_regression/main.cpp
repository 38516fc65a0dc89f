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
//
// The pieces: options.* (the command line), data.* (the samples), train.*
// (the training loop on one device), report.* (what is printed).
#include <algorithm>

#include "data.hpp"
#include "options.hpp"
#include "report.hpp"

using namespace logreg_tool;

int main(int argc, char** argv) {
  porta::cli::Command command("porta-logreg", kDescription, porta_version());
  Options o;
  RawOptions raw;
  declare(command, o, raw);
  // Bad option values are reported as bad arguments (2), any other failure as 1.
  return command.run(argc, argv, [&] {
    finish(o, raw);
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
    return run_one(o, data, iterations, lr, report_every);
  });
}
