#!/usr/bin/env python3
"""Runs porta-logreg twice and compares the models they print.

    compare_runs.py TOLERANCE REGEX -- COMMAND A... -- COMMAND B...

Both runs must succeed; the final loss, the bias and the weights printed
("final loss L", "b = B", "w = {...}") must agree within TOLERANCE (absolute),
and run A's output must match REGEX (Python re, searched). Used by ctest for
several devices, streaming under a cap and MPI ranks against one device.
"""
import re
import subprocess
import sys


def run(command):
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    out = done.stdout + done.stderr
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{out}")
    return out


def model(out):
    loss = re.search(r"final loss (-?[0-9.]+)", out)
    b = re.search(r"\nb = (-?[0-9.]+)", out)
    w = re.search(r"w = \{([^}]*)\}", out)
    if not (loss and b and w):
        sys.exit(f"no model in the output:\n{out}")
    weights = [float(v) for v in w.group(1).split(",") if "(" not in v and "..." not in v]
    return [float(loss.group(1)), float(b.group(1))] + weights


def main():
    tolerance, regex = float(sys.argv[1]), sys.argv[2]
    rest = sys.argv[3:]
    split = [i for i, a in enumerate(rest) if a == "--"]
    a, b = rest[split[0] + 1:split[1]], rest[split[1] + 1:]
    out_a, out_b = run(a), run(b)
    print(out_a)
    if not re.search(regex, out_a):
        sys.exit(f"run A's output does not match {regex!r}")
    ma, mb = model(out_a), model(out_b)
    worst = max(abs(x - y) for x, y in zip(ma, mb))
    print(f"largest difference of loss, bias and printed weights: {worst:.3g} (tolerance {tolerance:g})")
    if len(ma) != len(mb) or worst > tolerance:
        sys.exit(f"the models differ: {ma} vs {mb}")


if __name__ == "__main__":
    main()
