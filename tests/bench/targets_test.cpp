// The targets porta-bench judges (bench/targets.cpp), from a made-up run of
// an NVIDIA GPU through CUDA and Vulkan and of the CPU backend beside PoCL:
// each kind of goal says ok or MISS from the right figures, and not run, not
// built or n/a with the reason where a figure is missing, never ok.
#include "targets.hpp"

#include <gtest/gtest.h>

namespace porta::bench {
namespace {

constexpr uint64_t kM24 = uint64_t(1) << 24, kM20 = uint64_t(1) << 20, kN26 = uint64_t(1) << 26;
const char* kGpu = "NVIDIA H100 80GB HBM3";

DeviceSummary device(const char* backend, const char* name, const char* type, const char* api,
                     const char* energy) {
  DeviceSummary d;
  d.backend = backend;
  d.device = name;
  d.type = type;
  d.api_version = api;
  d.reference = std::string(backend) == "cpu";
  d.energy_source = energy;
  return d;
}

Row row(size_t device, const char* op, Dims dims, double ms, std::vector<Comparison> peers = {}) {
  Row r;
  r.device_index = device;
  r.op = op;
  r.dims = dims;
  r.size = size_text(op, dims);
  r.timing.median_ms = ms;
  r.flops = op_base(op) == "matmul";
  r.work = r.flops ? 2.0 * dims[0] * dims[1] * dims[2] : 12.0 * dims[0];
  r.peers = std::move(peers);
  return r;
}

// Joules per run that make `per_unit` J/GFLOP or J/GB for `r`.
Row with_energy(Row r, double per_unit) {
  r.timing.energy.joules_per_run = per_unit * r.work / 1e9;
  r.timing.energy.watts = 600;
  return r;
}

class MadeUpRun {
 public:
  Options options;
  std::vector<Peer> peers;
  std::vector<DeviceSummary> devices;
  std::vector<Row> rows;
  std::vector<Overhead> overheads;
  ExternalPeer external;

  std::vector<Target> judge() const {
    return judge_targets({options, peers, devices, rows, overheads}, external);
  }
};

// The one target whose `what` starts with `what` (and whose peer with `peer`).
Target find(const std::vector<Target>& targets, const std::string& what, const std::string& peer = "") {
  const Target* found = nullptr;
  for (const Target& t : targets)
    if (t.what.rfind(what, 0) == 0 && t.peer.rfind(peer, 0) == 0) {
      EXPECT_EQ(found, nullptr) << "two targets start with '" << what << "'";
      found = &t;
    }
  if (!found) ADD_FAILURE() << "no target starts with '" << what << "'";
  return found ? *found : Target{};
}

// The target `find` finds, checked to have `status` (and `measured`, unless null).
Target expect(const std::vector<Target>& targets, const std::string& what, const char* status,
              const char* measured = nullptr, const std::string& peer = "") {
  const Target t = find(targets, what, peer);
  EXPECT_EQ(t.status, status) << what << ": " << t.detail;
  if (measured) {
    EXPECT_EQ(t.measured, measured) << what;
  }
  return t;
}

class GpuTargets : public ::testing::Test {
 protected:
  void SetUp() override {
    run.devices = {device("cuda", kGpu, "GPU", "CUDA 13.0, sm_90", "NVML energy counter of H100"),
                   device("vulkan", kGpu, "GPU", "Vulkan 1.4.312", "n/a: energy counter unsupported: test")};
    run.rows = {
        row(0, "matmul", {1024, 1024, 1024}, 1, {{"cuBLAS SGEMM (H100)", 0.95, 0.95}}),
        with_energy(row(0, "matmul", {8192, 8192, 8192}, 1, {{"cuBLAS SGEMM (H100)", 0.88, 0.88}}),
                    0.0129 * 1.2),
        row(0, "matmul", {16384, 16384, 16384}, 1, {{"cuBLAS SGEMM (H100)", 0.5, 0.5}}),  // outside 1024-8192
        row(0, "matmul_f16", {4096, 4096, 4096}, 1, {{"cuBLAS HGEMM (fp32 accumulate) (H100)", 0.75, 0.75}}),
        row(0, "matmul_tf32", {4096, 4096, 4096}, 1, {{"cuBLAS TF32 GEMM (H100): failed: boom", 0, 0}}),
        row(0, "logreg_step", {kM24, 256, 1}, 10),
        row(0, "logreg_step_f16", {kM24, 256, 1}, 5),
        with_energy(row(0, "mul", {kN26, 1, 1}, 1), 0.2),
        row(1, "logreg_step", {kM20, 256, 1}, 1.9),
        row(1, "logreg_step_f16", {kM20, 256, 1}, 1),
        row(1, "mul", {kN26, 1, 1}, 1),
    };
    Row failed = row(1, "matmul", {4096, 4096, 4096}, 0);
    failed.error = "out of device memory";
    run.rows.push_back(failed);
    Overhead cuda;
    cuda.backend = "cuda";
    cuda.device = kGpu;
    cuda.round_trip_us = 9.0;
    cuda.replay_per_dispatch_us = 0.8;
    cuda.floors = {{"round trip", "CUDA driver, pageable (H100)", 12.0, ""},
                   {"round trip", "CUDA driver, pinned (H100)", 7.5, ""},
                   {"replay", "CUDA driver graph (H100)", 0.3, ""}};
    Overhead vulkan = cuda;
    vulkan.backend = "vulkan";
    vulkan.round_trip_us = 50;
    vulkan.replay_per_dispatch_us = 4.7;
    vulkan.floors = {{"round trip", "Vulkan host-visible (H100)", 20.0, ""},
                     {"replay", "Vulkan command buffer (H100)", 0, "vkQueueSubmit failed"}};
    run.overheads = {cuda, vulkan};
    run.external.file = "torch.json";
    run.external.device = kGpu;
    run.external.round_trip_us = 10.3;
    run.external.results = {{"mul", {kN26, 1, 1}, 0.3, 0.19, ""},
                            {"matmul", {8192, 8192, 8192}, 30, 0.0129, ""}};
  }
  MadeUpRun run;
};

TEST_F(GpuTargets, MatmulTakesTheWorstSizeInTheGoalsRange) {
  const auto targets = run.judge();
  const Target fp32 = expect(targets, "cuda (NVIDIA H100 80GB HBM3) fp32 matmul", "MISS", "0.88x");
  EXPECT_EQ(fp32.target, ">= 0.9x");
  EXPECT_NE(fp32.detail.find("1024^2 0.95, 8192^2 0.88"), std::string::npos) << fp32.detail;
  EXPECT_EQ(fp32.detail.find("16384"), std::string::npos) << fp32.detail;
  EXPECT_EQ(find(targets, "cuda (NVIDIA H100 80GB HBM3) fp16 matmul").status, "ok");
  const Target vulkan = expect(targets, "vulkan (NVIDIA H100 80GB HBM3) fp32 matmul", "MISS");
  EXPECT_NE(vulkan.detail.find("out of device memory"), std::string::npos) << vulkan.detail;
  EXPECT_EQ(vulkan.target, ">= 0.85x");
}

// The tensor-core GEMM goals show porta's cooperative-matrix multiply-add
// alone beside the peer's best rate, and say when that ceiling is below the
// target; a goal's verdict is still its ratio.
TEST_F(GpuTargets, TensorCoreGoalsShowTheCooperativeMatrixCeiling) {
  run.rows.push_back(
      row(1, "matmul_f16", {8192, 8192, 8192}, 4, {{"cuBLAS HGEMM (fp32 accumulate) (H100)", 1, 0.25}}));
  run.devices[0].coopmat_f16_tflops = 1000;
  run.devices[1].coopmat_f16_tflops = 330;
  // The peer: 2 * 8192^3 FLOPs in 1 ms (1099.5 TFLOP/s), 2 * 4096^3 in 0.75 ms (183.3).
  const auto targets = run.judge();
  const Target cuda = expect(targets, "cuda (NVIDIA H100 80GB HBM3) fp16 matmul", "ok", "0.75x");
  EXPECT_NE(
      cuda.detail.find("multiply-add alone (no memory traffic): 1000.0 TFLOP/s, 5.46 of the peer's best "
                       "(183.3 TFLOP/s at 4096^2)"),
      std::string::npos)
      << cuda.detail;
  EXPECT_EQ(cuda.detail.find("below the target"), std::string::npos) << cuda.detail;
  const Target vulkan = expect(targets, "vulkan (NVIDIA H100 80GB HBM3) fp16 matmul", "MISS", "0.25x");
  EXPECT_NE(vulkan.detail.find("330.0 TFLOP/s, 0.30 of the peer's best (1099.5 TFLOP/s at 8192^2): below the "
                               "target, which no GEMM of these products reaches"),
            std::string::npos)
      << vulkan.detail;
  // Not measured: the note says why; other goals say nothing of it.
  run.devices[1].coopmat_f16_tflops = 0;
  run.devices[1].coopmat_note = "not built: no glslangValidator 13";
  const Target unmeasured = find(run.judge(), "vulkan (NVIDIA H100 80GB HBM3) fp16 matmul");
  EXPECT_NE(unmeasured.detail.find("ceiling not measured: not built: no glslangValidator 13"),
            std::string::npos)
      << unmeasured.detail;
  EXPECT_EQ(find(run.judge(), "cuda (NVIDIA H100 80GB HBM3) fp32 matmul").detail.find("cooperative"),
            std::string::npos);
}

TEST_F(GpuTargets, AMissingOpOrPeerIsNeverOk) {
  const auto targets = run.judge();
  const Target bf16 = expect(targets, "cuda (NVIDIA H100 80GB HBM3) bf16 matmul", "not run");
  EXPECT_NE(bf16.detail.find("no matmul_bf16"), std::string::npos) << bf16.detail;
  const Target tf32 = expect(targets, "cuda (NVIDIA H100 80GB HBM3) TF32 matmul", "not run");
  EXPECT_NE(tf32.detail.find("failed: boom"), std::string::npos) << tf32.detail;
  EXPECT_EQ(find(targets, "cuda (NVIDIA H100 80GB HBM3) logreg step int8").status, "not run");
  const Target opencl = expect(targets, "OpenCL fp32 matmul", "not run");
  EXPECT_EQ(opencl.detail, "no OpenCL GPU in this run");
  for (const Target& t : targets) {
    EXPECT_EQ(t.group, "GPU") << t.what;  // no CPU goals without the reference device
    if (t.status == "ok") {
      EXPECT_NE(t.measured, "-") << t.what;
    }
  }
}

TEST_F(GpuTargets, DispatchGoalsAreMicroseconds) {
  const auto targets = run.judge();
  const Target replay = expect(targets, "cuda (NVIDIA H100 80GB HBM3) replay", "ok", "0.80 us");
  EXPECT_EQ(replay.peer, "API floor 0.30 us");
  EXPECT_NE(replay.detail.find("porta / floor 2.67x"), std::string::npos) << replay.detail;
  const Target vulkan_replay = expect(targets, "vulkan (NVIDIA H100 80GB HBM3) replay", "MISS");
  EXPECT_EQ(vulkan_replay.peer, "API floor: none in this run");
  EXPECT_NE(vulkan_replay.detail.find("vkQueueSubmit failed"), std::string::npos) << vulkan_replay.detail;
  // The lowest floor of the figure is the one the ratio is taken to; all are listed.
  const Target trip = expect(targets, "cuda (NVIDIA H100 80GB HBM3) round trip", "ok");
  EXPECT_EQ(trip.peer, "API floor 7.50 us");
  EXPECT_NE(trip.detail.find("porta / floor 1.20x; floor: CUDA driver, pinned"), std::string::npos)
      << trip.detail;
  EXPECT_NE(trip.detail.find("CUDA driver, pageable (H100) 12.00 us"), std::string::npos) << trip.detail;
  EXPECT_NE(trip.detail.find("PyTorch tiny op 10.3 us"), std::string::npos) << trip.detail;
  // A MISS where the API itself is above the target says so.
  const Target vulkan_trip = expect(targets, "vulkan (NVIDIA H100 80GB HBM3) round trip", "MISS");
  EXPECT_NE(vulkan_trip.detail.find("porta / floor 2.50x (the API alone takes 20.00 us, above the target)"),
            std::string::npos)
      << vulkan_trip.detail;
}

TEST_F(GpuTargets, TypedStepsAreComparedWithTheFp32StepOfTheGoalsSize) {
  const auto targets = run.judge();
  const Target cuda = expect(targets, "cuda (NVIDIA H100 80GB HBM3) logreg step f16", "ok", "2.00x");
  const Target vulkan = expect(targets, "vulkan (NVIDIA H100 80GB HBM3) logreg step f16", "not run");
  EXPECT_NE(vulkan.detail.find("m=2^20 d=256 1.90x"), std::string::npos) << vulkan.detail;
}

TEST_F(GpuTargets, EnergyIsPortasJoulesOverThePeersAtTheSameOpAndSize) {
  const auto targets = run.judge();
  const Target mul = expect(targets, "cuda (NVIDIA H100 80GB HBM3) energy, mul", "ok", "1.05x");
  EXPECT_NE(mul.peer.find("0.19 J/GB"), std::string::npos) << mul.peer;
  const Target sgemm = expect(targets, "cuda (NVIDIA H100 80GB HBM3) energy, fp32 matmul", "MISS", "1.20x");
  EXPECT_NE(sgemm.detail.find("15.5 J/TFLOP"), std::string::npos) << sgemm.detail;
  const Target na = expect(targets, "vulkan (NVIDIA H100 80GB HBM3) energy, mul", "n/a");
  EXPECT_NE(na.detail.find("energy counter unsupported"), std::string::npos) << na.detail;
  run.external = {};
  const Target alone = find(run.judge(), "cuda (NVIDIA H100 80GB HBM3) energy, mul");
  EXPECT_EQ(alone.status, "not run");
  EXPECT_NE(alone.detail.find("--peer-results"), std::string::npos) << alone.detail;
}

TEST(CpuTargets, TheReferenceDeviceAgainstItsLoopsOpenBlasAndPocl) {
  MadeUpRun run;
  run.devices = {device("cpu", "porta CPU", "CPU-type", "porta-cpu 0.2.0", "n/a: not an NVIDIA device"),
                 device("opencl", "PoCL CPU", "CPU-type", "OpenCL 3.0", "n/a: not an NVIDIA device")};
  run.rows = {row(0, "mul", {kM20, 1, 1}, 1, {{"C++ loop (host)", 1.1, 1.1}}),
              row(0, "mul", {kN26, 1, 1}, 1, {{"C++ loop (host)", 1.2, 1.2}}),
              row(1, "mul", {kM20, 1, 1}, 1, {{"porta cpu (porta CPU)", 1, 0.8}}),
              row(0, "matmul", {1024, 1024, 1024}, 1, {{"OpenBLAS SGEMM (2 threads)", 0.3, 0.3}}),
              row(0, "sigmoid", {kM20, 1, 1}, 1)};
  const auto targets = run.judge();
  EXPECT_EQ(targets.size(), 7u);  // the CPU goals only: no GPU in the run
  const Target loop = expect(targets, "cpu backend mul", "ok", "1.10x", "C++ loop");
  const Target pocl =
      expect(targets, "cpu backend mul", "ok", "1.25x", "PoCL");  // PoCL's row says PoCL / porta = 0.8
  EXPECT_EQ(find(targets, "cpu backend matmul").status, "MISS");
  EXPECT_EQ(find(targets, "cpu backend sigmoid", "C++ loop").status, "not run");
  const Target logreg = expect(targets, "cpu backend logreg step", "not run", nullptr, "PoCL");
  EXPECT_NE(logreg.detail.find("logreg_step"), std::string::npos) << logreg.detail;
}

}  // namespace
}  // namespace porta::bench
