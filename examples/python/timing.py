#!/usr/bin/env python3
"""porta's seed ops on every device found, against NumPy on the host: a table
of median times over sizes, and a plot of time against size per device.

    python examples/python/timing.py                      # every device, plot in porta-timing.png
    python examples/python/timing.py --devices cpu,vulkan --repeats 5 --plot out.png

Times are each op's device time between two events of its stream (porta's
events time on the device, or on the host around host-run work), median of
--repeats runs after one warm-up run; NumPy's are wall-clock medians. The
elementwise ops run over n float32 elements, matmul over n x n matrices, dense
over a batch of n rows of n features into n outputs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np
import porta

ELEMENTWISE_SIZES = [1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22]
MATRIX_SIZES = [64, 128, 256, 512, 1024]


def inputs(op: str, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    f = lambda *shape: rng.standard_normal(shape).astype(np.float32)  # noqa: E731
    if op in ("add", "mul"):
        return [f(n), f(n)]
    if op == "sigmoid":
        return [f(n)]
    if op == "matmul":
        return [f(n, n), f(n, n)]
    return [f(n, n), f(n, n), f(n)]  # dense: x, W, b


def numpy_op(op: str, args: list[np.ndarray]) -> np.ndarray:
    if op == "add":
        return args[0] + args[1]
    if op == "mul":
        return args[0] * args[1]
    if op == "sigmoid":
        return 1 / (1 + np.exp(-args[0]))
    if op == "matmul":
        return args[0] @ args[1]
    with np.errstate(over="ignore"):  # exp(-z) overflows to inf for large negative z: sigmoid 0, as wanted
        return 1 / (1 + np.exp(-(args[0] @ args[1].T + args[2])))


def porta_op(op: str, args: list[porta.Array], out: porta.Array) -> None:
    if op == "dense":
        porta.dense(*args, activation="sigmoid", out=out)
    else:
        getattr(porta, op)(*args, out=out)


def time_porta(dev: porta.Device, op: str, host: list[np.ndarray], repeats: int) -> float:
    args = [porta.asarray(a, device=dev) for a in host]
    want = numpy_op(op, host)
    out = porta.empty(want.shape, device=dev)
    porta_op(op, args, out)  # warm-up: builds the kernels, checks the result
    got = out.numpy()
    if not np.allclose(got, want, rtol=1e-3, atol=1e-3 * max(1.0, float(np.abs(want).max()))):
        raise RuntimeError(f"{op} on {dev.selector} differs from NumPy")
    times = []
    for _ in range(repeats):
        start = dev.stream.record()
        porta_op(op, args, out)
        end = dev.stream.record()
        dev.sync()
        times.append(start.elapsed_ms(end))
    return statistics.median(times)


def time_numpy(op: str, host: list[np.ndarray], repeats: int) -> float:
    numpy_op(op, host)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        numpy_op(op, host)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--devices", help="comma-separated selectors (cpu, vulkan:0, ...); default: every device")
    parser.add_argument("--ops", default="add,mul,sigmoid,matmul,dense")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--max-elements", type=int, default=ELEMENTWISE_SIZES[-1], help="largest elementwise size")
    parser.add_argument("--max-matrix", type=int, default=MATRIX_SIZES[-1], help="largest matrix side")
    parser.add_argument("--plot", default="porta-timing.png", help="where to save the plot ('' for none)")
    a = parser.parse_args()

    selectors = a.devices.split(",") if a.devices else [d.selector for d in porta.devices()]
    devices = [porta.open(s) for s in selectors]
    ops = a.ops.split(",")
    rng = np.random.default_rng(0)
    results: dict[tuple[str, str], list[tuple[int, float]]] = {}
    names = ["numpy"] + [f"{d.selector} ({d.name[:28]})" for d in devices]
    print(f"median ms of {a.repeats} runs; elementwise ops over n floats, matmul/dense over n x n")
    print(f"{'op':8} {'n':>8} " + " ".join(f"{n[:40]:>16}" for n in ["numpy"] + [d.selector for d in devices]))
    for op in ops:
        sizes = MATRIX_SIZES if op in ("matmul", "dense") else ELEMENTWISE_SIZES
        limit = a.max_matrix if op in ("matmul", "dense") else a.max_elements
        for n in [s for s in sizes if s <= limit]:
            host = inputs(op, n, rng)
            row = [time_numpy(op, host, a.repeats)]
            for d in devices:
                try:
                    row.append(time_porta(d, op, host, a.repeats))
                except porta.Error as e:  # a device that cannot run the op: say why, time the others
                    print(f"{op} on {d.selector}: {e}", file=sys.stderr)
                    row.append(float("nan"))
            for name, ms in zip(names, row):
                if ms == ms:
                    results.setdefault((op, name), []).append((n, ms))
            print(f"{op:8} {n:>8} " + " ".join(f"{ms:>16.3f}" for ms in row), flush=True)

    if a.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, len(ops), figsize=(4 * len(ops), 3.6), squeeze=False)
        for ax, op in zip(axes[0], ops):
            for name in names:
                points = results.get((op, name), [])
                if points:
                    ax.plot(*zip(*points), marker="o", label=name)
            ax.set(title=op, xscale="log", yscale="log", xlabel="n", ylabel="ms")
            ax.grid(True, which="both", alpha=0.3)
        axes[0][0].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(a.plot, dpi=110)
        print(f"plot: {a.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
