#!/usr/bin/env python3
"""PyTorch on the same GPU as porta-bench: torch.mul, torch.sigmoid, torch.mm
(fp32 with TF32 off, TF32, fp16 and bf16: ops matmul, matmul_tf32,
matmul_f16, matmul_bf16), an eager logistic-regression step and a tiny op's
round trip (16 floats up, one add, back), timed like porta-bench (CUDA
events, median of --runs after --warmup), with the same bytes and FLOPs
counted. Energy as porta-bench measures it (bench/energy.hpp): NVML's
counter (nvmlDeviceGetTotalEnergyConsumption, through ctypes), the power
between its first and last step while the op runs back to back for at least
--energy seconds, over the op's rate then; median of --energy-runs samples;
each op at its largest size. The GPU is found in NVML by its PCI address
(else its UUID).

--json writes the figures in the form porta-bench --peer-results reads
(each result's op, dims, median_ms and energy), which judges the targets
that compare with PyTorch. Given porta-bench's --json output it also prints,
for each porta row of the same op and size on a GPU, porta's throughput over
PyTorch's.

  python3 torch_compare.py [--porta-json bench.json] [--runs 20] [--json torch.json]
"""
import argparse
import ctypes
import json
import math
import statistics
import sys
import threading
import time


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--porta-json", help="porta-bench --json output from the same machine")
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--elementwise", default="2^20,2^24,2^26")
    p.add_argument("--matmul", default="1024,2048,4096")
    p.add_argument("--logreg", default="2^18x256,2^20x256")
    p.add_argument("--matmul-dtypes", default="f32,tf32,f16,bf16", help="of torch.mm: f32 (TF32 off), tf32, f16, bf16")
    p.add_argument("--energy", type=float, default=1.0,
                   help="seconds each energy sample runs the op back to back (0: no energy figures)")
    p.add_argument("--energy-runs", type=int, default=3, help="energy samples per figure; the median is kept")
    p.add_argument("--json", help="write the figures here too")
    return p.parse_args()


def size(text):
    return 1 << int(text[2:]) if text.startswith("2^") else int(text)


def time_cuda(torch, fn, warmup, runs):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop))
    return statistics.median(samples)


class Nvml:
    """The NVML energy counter of the GPU PyTorch uses, or the reason there is none."""

    def __init__(self, torch, dev):
        self.handle = None
        self.reason = ""
        try:
            self.lib = ctypes.CDLL("libnvidia-ml.so.1")
        except OSError as e:
            self.reason = f"no NVML library ({e})"
            return
        self.lib.nvmlErrorString.restype = ctypes.c_char_p
        r = self.lib.nvmlInit_v2()
        if r:
            self.reason = f"nvmlInit_v2 failed: {self.error(r)}"
            return
        props = torch.cuda.get_device_properties(dev)
        handle = ctypes.c_void_p()
        if hasattr(props, "pci_bus_id") and hasattr(props, "pci_device_id"):
            key = f"{getattr(props, 'pci_domain_id', 0):04x}:{props.pci_bus_id:02x}:{props.pci_device_id:02x}.0"
            r = self.lib.nvmlDeviceGetHandleByPciBusId_v2(key.encode(), ctypes.byref(handle))
        elif hasattr(props, "uuid"):
            key = f"GPU-{props.uuid}"
            r = self.lib.nvmlDeviceGetHandleByUUID(key.encode(), ctypes.byref(handle))
        else:
            self.reason = "PyTorch gives neither the GPU's PCI address nor its UUID to find it in NVML by"
            return
        if r:
            self.reason = f"NVML has no device {key}: {self.error(r)}"
            return
        self.key = key
        mj = ctypes.c_ulonglong()
        r = self.lib.nvmlDeviceGetTotalEnergyConsumption(handle, ctypes.byref(mj))
        if r:
            self.reason = f"energy counter unsupported: nvmlDeviceGetTotalEnergyConsumption: {self.error(r)}"
            return
        self.handle = handle

    def error(self, r):
        return f"{self.lib.nvmlErrorString(r).decode()} ({r})"

    def millijoules(self):
        mj = ctypes.c_ulonglong()
        return mj.value if self.lib.nvmlDeviceGetTotalEnergyConsumption(self.handle, ctypes.byref(mj)) == 0 else None

    def measure(self, torch, fn, run_ms, seconds, samples):
        """Joules per run of fn and the power, as porta-bench's EnergyMeter::measure."""
        if not self.handle:
            return {"reason": self.reason}
        batch = max(1, math.ceil(20.0 / max(run_ms, 1e-4)))
        figures, failure = [], ""
        for _ in range(samples):
            steps, stop = [], threading.Event()

            def poll():
                last = self.millijoules()
                while not stop.is_set():
                    mj = self.millijoules()
                    if mj is not None and mj != last:
                        steps.append((time.perf_counter(), mj))
                        last = mj
                    time.sleep(0.0001)

            poller = threading.Thread(target=poll)
            poller.start()
            try:
                for _ in range(batch):  # brings the clocks up; the span starts when it is done
                    fn()
                torch.cuda.synchronize()
                start, runs = time.perf_counter(), 0
                while True:
                    for _ in range(batch):
                        fn()
                    torch.cuda.synchronize()
                    runs += batch
                    end = time.perf_counter()
                    if end - start >= seconds:
                        break
            finally:
                stop.set()
                poller.join()
            inside = [s for s in steps if start <= s[0] <= end]
            if len(inside) < 2 or inside[-1][0] <= inside[0][0]:
                failure = f"the energy counter changed fewer than twice in {end - start:.2f} s"
                continue
            watts = (inside[-1][1] - inside[0][1]) * 1e-3 / (inside[-1][0] - inside[0][0])
            figures.append((watts / (runs / (end - start)), watts))
        if not figures:
            return {"reason": failure}
        figures.sort()
        joules, watts = figures[len(figures) // 2]
        return {"joules_per_run": joules, "watts": watts, "samples": len(figures), "seconds_per_sample": seconds}


def main():
    args = parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"torch_compare: PyTorch is not importable here: {e}")
        return 1
    if not torch.cuda.is_available():
        print("torch_compare: PyTorch sees no CUDA device")
        return 1
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda")
    name = torch.cuda.get_device_name(dev)
    print(f"PyTorch {torch.__version__} on {name}; median of {args.runs} runs after {args.warmup} warm-up runs")
    nvml = Nvml(torch, dev) if args.energy > 0 else None
    print("energy: " + ("not measured (--energy 0)" if nvml is None else
                        f"n/a: {nvml.reason}" if not nvml.handle else f"NVML energy counter of {nvml.key}") +
          f"; each op at its largest size, at least {args.energy} s per sample, median of {args.energy_runs}")
    rows = []

    def add(op, dims, fn, work, unit, energy=False):
        ms = time_cuda(torch, fn, args.warmup, args.runs)
        rate = work / (ms * 1e-3) / 1e9
        row = {"op": op, "dims": dims, "median_ms": ms, "rate": rate, "unit": unit}
        if energy and nvml is not None:
            e = nvml.measure(torch, fn, ms, args.energy, args.energy_runs)
            if "joules_per_run" in e:
                e = {"joules_per_unit": e["joules_per_run"] / (work / 1e9),
                     "unit": "J/GFLOP" if unit == "GFLOP/s" else "J/GB", **e}
            row["energy"] = e
        rows.append(row)

    # The copy bound, as porta-bench measures it: 256 MiB device to device.
    src = torch.empty(64 << 20, device=dev)
    dst = torch.empty_like(src)
    ms = time_cuda(torch, lambda: dst.copy_(src), args.warmup, args.runs)
    copy_gbs = 2 * src.numel() * 4 / (ms * 1e-3) / 1e9
    del src, dst

    elementwise = list(map(size, args.elementwise.split(",")))
    for n in elementwise:
        a = torch.rand(n, device=dev)
        b = torch.rand(n, device=dev)
        out = torch.empty_like(a)
        largest = n == max(elementwise)
        add("mul", [n, 1, 1], lambda: torch.mul(a, b, out=out), 12.0 * n, "GB/s", largest)
        x = (torch.rand(n, device=dev) - 0.5) * 16
        add("sigmoid", [n, 1, 1], lambda: torch.sigmoid(x, out=out), 8.0 * n, "GB/s", largest)
        del a, b, out, x
    matmul_sizes = list(map(size, args.matmul.split(",")))
    types = {"f32": ("matmul", torch.float32, False), "tf32": ("matmul_tf32", torch.float32, True),
             "f16": ("matmul_f16", torch.float16, False), "bf16": ("matmul_bf16", torch.bfloat16, False)}
    for dtype in args.matmul_dtypes.split(","):
        op, torch_type, tf32 = types[dtype]
        torch.backends.cuda.matmul.allow_tf32 = tf32
        for n in matmul_sizes:
            a = (torch.rand(n, n, device=dev) - 0.5).to(torch_type)
            b = (torch.rand(n, n, device=dev) - 0.5).to(torch_type)
            c = torch.empty(n, n, device=dev, dtype=torch_type)
            add(op, [n, n, n], lambda: torch.mm(a, b, out=c), 2.0 * n * n * n, "GFLOP/s", n == max(matmul_sizes))
            del a, b, c
    torch.backends.cuda.matmul.allow_tf32 = False
    logreg = [tuple(size(t) for t in spec.split("x")) for spec in args.logreg.split(",")]
    for m, d in logreg:
        X = torch.rand(m, d, device=dev) - 0.5
        y = (torch.rand(m, device=dev) > 0.5).float()
        w = torch.zeros(d, device=dev)
        b = torch.zeros((), device=dev)
        lr = 0.1

        def step():
            # Eager: each line is its own kernel(s).
            z = X @ w + b
            yhat = torch.sigmoid(z)
            r = yhat - y
            gw = X.t() @ r / m
            gb = r.mean()
            loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
            w.sub_(lr * gw)
            b.sub_(lr * gb)
            return loss

        add("logreg_step", [m, d, 1], step, 4.0 * m * d + 4.0 * m, "GB/s", (m, d) == max(logreg))
        del X, y, w, b

    # A tiny op's round trip: 16 floats up, one add, the result back (host clock).
    host = torch.ones(16)
    for _ in range(10):
        (host.to(dev) + 1).cpu()
    trips = []
    for _ in range(max(args.runs, 100)):
        t0 = time.perf_counter()
        (host.to(dev) + 1).cpu()
        trips.append((time.perf_counter() - t0) * 1e6)
    round_trip_us = statistics.median(trips)

    print(f"\nPyTorch copy bound: {copy_gbs:.1f} GB/s (256 MiB device to device, bytes read + written)\n")
    print(f"tiny op round trip (16 floats up, add, back): {round_trip_us:.1f} us\n")
    print(f"{'op':<12} {'dims':<18} {'torch ms':>10} {'torch rate':>16}   energy")
    for r in rows:
        e = r.get("energy")
        energy = "" if e is None else (f"{e['joules_per_unit']:.4g} {e['unit']} at {e['watts']:.0f} W"
                                       if "joules_per_unit" in e else f"n/a: {e['reason']}")
        print(f"{r['op']:<12} {'x'.join(str(v) for v in r['dims'] if v != 1) or '1':<18} {r['median_ms']:>10.3f} "
              f"{r['rate']:>10.1f} {r['unit']}   {energy}")

    compared = []
    if args.porta_json:
        with open(args.porta_json) as f:
            porta = json.load(f)
        gpu = {(d["backend"], d["device"]) for d in porta["devices"] if d["type"] == "GPU"}
        print(f"\nporta (from {args.porta_json}, {porta['date']}) against PyTorch on {name}: "
              "porta throughput / PyTorch's")
        print(f"{'backend':<8} {'op':<12} {'size':<16} {'porta ms':>10} {'torch ms':>10} {'ratio':>7}")
        for p in porta["results"]:
            if p["error"] or (p["backend"], p["device"]) not in gpu:
                continue
            for r in rows:
                if r["op"] == p["op"] and [int(v) for v in p["dims"]] == r["dims"]:
                    ratio = r["median_ms"] / p["median_ms"]
                    compared.append({"backend": p["backend"], "device": p["device"], "op": p["op"], "size": p["size"],
                                     "porta_ms": p["median_ms"], "torch_ms": r["median_ms"], "ratio": ratio})
                    print(f"{p['backend']:<8} {p['op']:<12} {p['size']:<16} {p['median_ms']:>10.3f} "
                          f"{r['median_ms']:>10.3f} {ratio:>6.2f}x")
        print("\nearlier goals against PyTorch (issue 19's targets: porta-bench --targets)")
        for c in compared:
            if c["op"] in ("mul", "sigmoid") and c["size"] == "2^26":
                ok = c["ratio"] >= 0.90
                print(f"  [{'met ' if ok else 'MISS'}] {c['backend']} {c['op']} 2^26: {c['ratio']:.2f}x of PyTorch's "
                      "GB/s (goal >= 0.90x)")
            if c["op"] == "logreg_step" and c["size"] == "m=2^20 d=256":
                ok = c["ratio"] >= 1.5
                print(f"  [{'met ' if ok else 'MISS'}] {c['backend']} logreg_step m=2^20 d=256: {c['ratio']:.2f}x "
                      "faster than the PyTorch eager step (goal >= 1.50x)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"peer": f"PyTorch {torch.__version__}", "device": name, "torch": torch.__version__,
                       "copy_gbs": copy_gbs, "round_trip_us": round_trip_us, "results": rows, "compared": compared},
                      f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
