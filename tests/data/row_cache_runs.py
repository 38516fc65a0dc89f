#!/usr/bin/env python3
"""porta-logreg streaming a CSV, LIBSVM or converted NPY file through its row cache.

    row_cache_runs.py PORTA_LOGREG WORK_DIR DATA_FILE [porta-logreg options...]

Trains on DATA_FILE with --device-memory far below the data, the rows parsed
(NPY: converted) once into the row cache: in host memory, in a file in WORK_DIR/cache, and
with a cache folder that cannot exist (one warning, then parsed every pass);
and with --row-cache off (parsed every pass, as before the cache). Every run must say how its rows
were read, the model files must be the same bytes (the cache holds exactly
the values the parser gives), the cache's folder must be empty afterwards,
and the printed model must equal the run with the data in device memory.
"""
import os
import re
import subprocess
import sys


def run(command):
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done


def printed_model(out):
    return re.search(r"trained: w = \{[^}]*\}\nb = \S+\nfinal loss \S+", out).group(0)


def main():
    logreg, work, data = sys.argv[1:4]
    options = sys.argv[4:]
    cache_dir = os.path.join(work, "cache")
    os.makedirs(cache_dir, exist_ok=True)
    for name in os.listdir(cache_dir):
        os.remove(os.path.join(cache_dir, name))
    missing = os.path.join(work, "no-such-folder")
    stream = ["--device-memory", "16K"]
    how = "converted" if data.endswith(".npy") else "parsed"
    runs = {
        "memory": (stream, how + " once into a row cache in host memory"),
        "file": (stream + ["--row-cache-memory", "0", "--row-cache-dir", cache_dir],
                 how + " once into a row cache in a file in " + cache_dir),
        "unwritable": (stream + ["--row-cache-memory", "0", "--row-cache-dir", missing], how + " on every pass"),
        "off": (stream + ["--row-cache", "off"], how + " on every pass"),
        "in device memory": ([], None),
    }
    models, printed = {}, {}
    for name, (extra, how) in runs.items():
        model = os.path.join(work, f"model-{name.replace(' ', '-')}.json")
        done = run([logreg, "--data", data, "--save-model", model] + options + extra)
        print(f"--- {name}\n{done.stdout}{done.stderr}")
        if how and f"not held whole in device memory: {how}\n" not in done.stdout:
            sys.exit(f"{name}: the run does not say its rows were {how}")
        warnings = done.stderr.count("warning:")
        want = 1 if name == "unwritable" else 0
        if warnings != want:
            sys.exit(f"{name}: {warnings} warnings; expected {want}")
        if name == "unwritable" and "cannot be cached in " + missing not in done.stderr:
            sys.exit("the warning does not name the folder")
        with open(model, "rb") as f:
            models[name] = f.read()
        printed[name] = printed_model(done.stdout)
    if os.listdir(cache_dir):
        sys.exit(f"the row cache left files behind in {cache_dir}: {os.listdir(cache_dir)}")
    for name in ["file", "unwritable", "off"]:
        if models[name] != models["memory"]:
            sys.exit(f"the model trained with the rows {name} differs from the one from the cache in memory")
    if printed["memory"] != printed["in device memory"]:
        sys.exit(f"streamed:\n{printed['memory']}\nin device memory:\n{printed['in device memory']}")
    print("the same model from every run; the same printed model as with the data in device memory")


if __name__ == "__main__":
    main()
