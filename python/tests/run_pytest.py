"""ctest's entry for a pytest suite on one backend:
    run_pytest.py BACKEND [--require=MODULE ...] PYTEST_ARGS...
exits 77 (skip) saying why where the backend or a Python module the suite
needs (pytest, NumPy, each --require) is missing, else runs pytest with the
remaining arguments and returns its status."""

import sys


def skip(why: str) -> None:
    print(f"SKIP: {why}")
    sys.exit(77)


def main() -> int:
    backend, args = sys.argv[1], sys.argv[2:]
    required = [a.split("=", 1)[1] for a in args if a.startswith("--require=")]
    args = [a for a in args if not a.startswith("--require=")]
    for module in ["pytest", "numpy"] + required:
        try:
            __import__(module)
        except ImportError:
            skip(f"{module} is not installed for {sys.executable} (scripts/common.sh installs it into build/tools-venv)")
    import porta
    import pytest

    state = {name: (available, reason) for name, available, reason in porta.backends()}
    if backend not in state:
        skip(f"no {backend} plugin was built")
    if not state[backend][0]:
        skip(f"backend {backend} is unavailable here: {state[backend][1]}")
    if not any(d.backend == backend for d in porta.devices()):
        skip(f"backend {backend} has no device here")
    return pytest.main(args)


if __name__ == "__main__":
    sys.exit(main())
