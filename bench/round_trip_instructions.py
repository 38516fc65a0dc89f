#!/usr/bin/env python3
"""Host instructions per round trip, by object file, under callgrind.

Runs porta-round-trips BACKEND under callgrind collecting only its counted
round trips (after warm-up ones; one run before fills the kernel cache), and
divides callgrind's self cost per object (libporta.so, the plugin, the
driver's libraries, libc, ...) by the count. Instructions of every thread
count (PoCL's and lavapipe's worker threads too, whose waiting varies from run
to run); porta's own objects repeat to within a few instructions.

    bench/round_trip_instructions.py build/release/bin/porta-round-trips cpu opencl vulkan
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

COUNT = 200


def self_cost_by_object(path):
    names, cost = {}, collections.Counter()
    current, call_line = "?", False
    for line in open(path, errors="replace"):
        if line.startswith(("ob=", "cob=")):
            # Object names are compressed: "(id) name" the first time, "(id)" after,
            # in one id space for ob= (whose code follows) and cob= (a callee's).
            value = line.split("=", 1)[1].strip()
            m = re.match(r"\((\d+)\)\s*(.*)", value)
            if m and m.group(2):
                names[m.group(1)] = m.group(2)
            if line.startswith("ob="):
                current = names.get(m.group(1), m.group(1)) if m else value
        elif line.startswith("calls="):
            call_line = True  # the next cost line is the call's inclusive cost
        elif line[:1].isdigit() or line[:1] in "+-*":
            if call_line:
                call_line = False
            else:
                parts = line.split()
                if len(parts) >= 2:
                    cost[current] += int(parts[1])
    return cost


def environment(cache):
    # Valgrind runs no AVX-512: the CPU backend's built-in kernels and the
    # kernels it compiles at run time (in a cache of their own) go without.
    env = dict(os.environ, PORTA_CACHE_DIR=cache)
    env.setdefault("PORTA_CPU_ISA", "x86-64-v3")
    env.setdefault("PORTA_CXX", "c++ -mno-avx512f")
    return env


def run(program, backend, count, out, env):
    subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no", f"--callgrind-out-file={out}", program, backend,
                    str(count)], check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return self_cost_by_object(out)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    program = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        env = environment(os.path.join(tmp, "cache"))
        for backend in sys.argv[2:]:
            subprocess.run([program, backend, "2"], check=True, env=env, stdout=subprocess.DEVNULL)
            counted = run(program, backend, COUNT, os.path.join(tmp, "out"), env)
            per = {ob: v / COUNT for ob, v in counted.items()}
            porta = sum(v for ob, v in per.items() if "/libporta" in ob)
            print(f"{backend}: {sum(per.values()):,.0f} instructions per round trip, "
                  f"{porta:,.0f} in porta (libporta and its plugin)")
            for ob, v in sorted(per.items(), key=lambda kv: -kv[1])[:8]:
                print(f"  {v:12,.0f}  {ob}")


if __name__ == "__main__":
    main()
