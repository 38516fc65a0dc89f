#!/usr/bin/env python3
"""PyTorch on the same GPU as porta-bench: torch.mul, torch.sigmoid, torch.mm
(fp32, TF32 off) and an eager logistic-regression step, timed like
porta-bench (CUDA events, median of --runs after --warmup), with the same
bytes and FLOPs counted. Given porta-bench's --json output it prints, for
each porta row of the same op and size on a GPU, porta's throughput over
PyTorch's, and the issue's PyTorch targets.

  python3 torch_compare.py --porta-json bench.json [--runs 20] [--json torch.json]
"""
import argparse
import json
import statistics
import sys


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--porta-json", help="porta-bench --json output from the same machine")
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--elementwise", default="2^20,2^24,2^26")
    p.add_argument("--matmul", default="1024,2048,4096")
    p.add_argument("--logreg", default="2^18x256,2^20x256")
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
    rows = []

    def add(op, dims, ms, work, unit):
        rate = work / (ms * 1e-3) / 1e9
        rows.append({"op": op, "dims": dims, "median_ms": ms, "rate": rate, "unit": unit})

    # The copy bound, as porta-bench measures it: 256 MiB device to device.
    src = torch.empty(64 << 20, device=dev)
    dst = torch.empty_like(src)
    ms = time_cuda(torch, lambda: dst.copy_(src), args.warmup, args.runs)
    copy_gbs = 2 * src.numel() * 4 / (ms * 1e-3) / 1e9
    del src, dst

    for n in map(size, args.elementwise.split(",")):
        a = torch.rand(n, device=dev)
        b = torch.rand(n, device=dev)
        out = torch.empty_like(a)
        add("mul", [n, 1, 1], time_cuda(torch, lambda: torch.mul(a, b, out=out), args.warmup, args.runs), 12.0 * n, "GB/s")
        x = (torch.rand(n, device=dev) - 0.5) * 16
        add("sigmoid", [n, 1, 1], time_cuda(torch, lambda: torch.sigmoid(x, out=out), args.warmup, args.runs), 8.0 * n,
            "GB/s")
        del a, b, out, x
    for n in map(size, args.matmul.split(",")):
        a = torch.rand(n, n, device=dev) - 0.5
        b = torch.rand(n, n, device=dev) - 0.5
        c = torch.empty(n, n, device=dev)
        add("matmul", [n, n, n], time_cuda(torch, lambda: torch.mm(a, b, out=c), args.warmup, args.runs),
            2.0 * n * n * n, "GFLOP/s")
        del a, b, c
    for spec in args.logreg.split(","):
        m, d = (size(t) for t in spec.split("x"))
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

        add("logreg_step", [m, d, 1], time_cuda(torch, step, args.warmup, args.runs), 4.0 * m * d + 4.0 * m, "GB/s")
        del X, y, w, b

    print(f"\nPyTorch copy bound: {copy_gbs:.1f} GB/s (256 MiB device to device, bytes read + written)\n")
    print(f"{'op':<12} {'dims':<18} {'torch ms':>10} {'torch rate':>16}")
    for r in rows:
        print(f"{r['op']:<12} {'x'.join(str(v) for v in r['dims'] if v != 1) or '1':<18} {r['median_ms']:>10.3f} "
              f"{r['rate']:>10.1f} {r['unit']}")

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
        print("\ntargets (PyTorch)")
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
            json.dump({"device": name, "torch": torch.__version__, "copy_gbs": copy_gbs, "results": rows,
                       "compared": compared}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
