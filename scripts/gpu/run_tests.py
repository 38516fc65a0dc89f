#!/usr/bin/env python3
"""Runs porta's ctest suite from a test list, on a machine without CMake.

`ctest --show-only=json-v1 > tests.json` on the build machine lists every test
with its command, environment and pass rules; this runs them the way ctest
would (ENVIRONMENT, WORKING_DIRECTORY, WILL_FAIL, PASS/FAIL_REGULAR_EXPRESSION,
SKIP_RETURN_CODE, SKIP_REGULAR_EXPRESSION, TIMEOUT) and prints ctest-style results.

A test whose command names a Python interpreter that is not here (the Python
package's entries name the build machine's, tests/python) runs with --python
instead, by default the Python running this: the bundle's package carries an
extension for Python 3.12 and later beside the build's own (scripts/gpu/bundle).

usage: run_tests.py tests.json [-R REGEX] [-E REGEX] [-L LABEL] [--env K=V]... [--log DIR] [--python PATH]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time


def properties(test):
    return {p["name"]: p["value"] for p in test.get("properties", [])}


INTERPRETER = re.compile(r"python[0-9.]*")


def local_python(command, python, replaced):
    """The command with each absolute path of a Python interpreter that is not
    here replaced by `python`; the replaced paths are added to `replaced`."""
    out = []
    for arg in command:
        if os.path.isabs(arg) and INTERPRETER.fullmatch(os.path.basename(arg)) and not os.path.exists(arg):
            replaced.add(arg)
            arg = python
        out.append(arg)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tests")
    ap.add_argument("-R", dest="include")
    ap.add_argument("-E", dest="exclude")
    ap.add_argument("-L", dest="label")
    ap.add_argument("--env", action="append", default=[], help="extra K=V for every test")
    ap.add_argument("--prefix", default="", help="command prefix, e.g. 'compute-sanitizer --tool memcheck'")
    ap.add_argument("--log", help="folder for each test's output")
    ap.add_argument("--max-seconds", type=float, help="cap on each test's TIMEOUT")
    ap.add_argument("--python", default=sys.executable,
                    help="runs the tests whose Python interpreter is not here (default: this one)")
    args = ap.parse_args()

    tests = json.load(open(args.tests))["tests"]
    selected = []
    for t in tests:
        props = properties(t)
        if args.include and not re.search(args.include, t["name"]):
            continue
        if args.exclude and re.search(args.exclude, t["name"]):
            continue
        if args.label and args.label not in props.get("LABELS", []):
            continue
        if "command" not in t:
            continue
        selected.append((t, props))

    if args.log:
        os.makedirs(args.log, exist_ok=True)
    passed, failed, skipped = [], [], []
    replaced = set()
    for i, (t, props) in enumerate(selected, 1):
        env = dict(os.environ)
        for kv in props.get("ENVIRONMENT", []) + args.env:
            k, _, v = kv.partition("=")
            env[k] = v
        missing = set()
        cmd = (args.prefix.split() if args.prefix else []) + local_python(t["command"], args.python, missing)
        for path in sorted(missing - replaced):
            print(f"{path} is not here: {args.python} runs the tests that name it", flush=True)
        replaced |= missing
        start = time.time()
        try:
            r = subprocess.run(cmd, cwd=props.get("WORKING_DIRECTORY"), env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=min(props.get("TIMEOUT", 1500), args.max_seconds or 1e9))
            out, rc = r.stdout.decode(errors="replace"), r.returncode
        except subprocess.TimeoutExpired as e:
            out, rc = (e.stdout or b"").decode(errors="replace") + "\n*** timeout", None
        except OSError as e:
            out, rc = str(e), None
        seconds = time.time() - start
        if rc is not None and rc == props.get("SKIP_RETURN_CODE", -1):
            verdict = "Skipped"
        elif rc is None:
            verdict = "Failed"
        elif "PASS_REGULAR_EXPRESSION" in props:
            ok = any(re.search(p, out) for p in props["PASS_REGULAR_EXPRESSION"])
            verdict = "Passed" if ok else "Failed"
        else:
            ok = rc == 0
            if props.get("WILL_FAIL"):
                ok = not ok
            verdict = "Passed" if ok else "Failed"
        if verdict == "Passed" and any(re.search(p, out) for p in props.get("FAIL_REGULAR_EXPRESSION", [])):
            verdict = "Failed"
        if rc is not None and any(re.search(p, out) for p in props.get("SKIP_REGULAR_EXPRESSION", [])):
            verdict = "Skipped"
        {"Passed": passed, "Failed": failed, "Skipped": skipped}[verdict].append(t["name"])
        print(f"{i:3}/{len(selected)} {t['name']:<60} {verdict:<8} {seconds:7.2f} s", flush=True)
        if args.log:
            name = re.sub(r"[^A-Za-z0-9_.-]", "_", t["name"])
            with open(os.path.join(args.log, name + ".log"), "w") as f:
                f.write(out)
        if verdict == "Failed":
            print("\n".join(out.splitlines()[-40:]))
    print(f"\n{len(passed)} passed, {len(failed)} failed, {len(skipped)} skipped")
    for name in skipped:
        print(f"  skipped: {name}")
    for name in failed:
        print(f"  FAILED: {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
