#!/usr/bin/env python3
"""porta-logreg on the Wisconsin breast-cancer data (as scikit-learn ships it)
against scikit-learn's LogisticRegression on the same split.

The data are written to the work folder as CSV (with a header), LIBSVM and
NPY; porta-logreg trains on each (on the CPU backend; the three models must
agree: the same float32 numbers whatever the format), saves the model, trains
on from a saved half-way model (which must end where training straight
through does), and predicts the held-out rows from NPY files with
`porta-logreg predict`. scikit-learn
standardises with the training rows' statistics as porta does and trains its
default LogisticRegression. The test fails when porta's test accuracy is more
than 1 percentage point from scikit-learn's. Exit 77 (skipped) without
scikit-learn."""
import argparse
import csv
import json
import os
import subprocess
import sys


parser = argparse.ArgumentParser()
parser.add_argument("--porta-logreg", required=True)
parser.add_argument("--work", required=True)
parser.add_argument("--backend", default="cpu")
parser.add_argument("--iterations", default="3000")
args = parser.parse_args()
os.makedirs(args.work, exist_ok=True)
work = lambda name: os.path.join(args.work, name)


def run(*argv, probe=False):
    cmd = [args.porta_logreg, *argv]
    print("$", " ".join(cmd), flush=True)
    done = subprocess.run(cmd, capture_output=True, text=True)
    if probe and done.returncode != 0 and "porta_device_open" in done.stderr:
        print(f"skipped: no {args.backend} device here: {done.stderr.strip()}")
        sys.exit(77)
    sys.stdout.write(done.stdout)
    sys.stdout.write(done.stderr)
    if done.returncode != 0:
        sys.exit(f"FAILED: {cmd[1:]} exited {done.returncode}")
    return done.stdout


# A backend with no device here is a skip, said before anything else is done.
run("--backend", args.backend, "--samples", "10", "--features", "2", "--iterations", "1", probe=True)

try:
    import numpy as np
    from sklearn.datasets import dump_svmlight_file, load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler
except ImportError as e:
    print(f"skipped: scikit-learn or numpy is missing ({e}); scripts/common.sh installs python3-sklearn")
    sys.exit(77)

data = load_breast_cancer()
x, y = data.data, data.target.astype(np.int64)
# A fixed, stratified split: 455 training rows, 114 test rows.
x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.2, random_state=42, stratify=y)

with open(work("train.csv"), "w", newline="") as f:
    out = csv.writer(f)
    out.writerow(list(data.feature_names) + ["target"])
    out.writerows([[repr(float(v)) for v in row] + [int(label)] for row, label in zip(x_train, y_train)])
dump_svmlight_file(x_train, y_train * 2 - 1, work("train.svm"), zero_based=False)  # labels -1/+1
np.save(work("train.npy"), np.column_stack([x_train, y_train]).astype(np.float64))
np.save(work("test_x.npy"), x_test.astype(np.float32))
np.save(work("test_y.npy"), y_test)

scaler = StandardScaler().fit(x_train)
sk = LogisticRegression().fit(scaler.transform(x_train), y_train)
sk_accuracy = 100.0 * sk.score(scaler.transform(x_test), y_test)




common = ["--backend", args.backend, "--iterations", args.iterations, "--lr", "0.5"]
run("--data", work("train.csv"), "--label", "target", "--save-model", work("model.json"), *common)
# The files are read on the host, the same for every backend: the formats are
# compared on the CPU backend only.
formats = [("LIBSVM", "train.svm", "model_svm.json"), ("NPY", "train.npy", "model_npy.json")]
if args.backend != "cpu":
    formats = []
for _, data_file, model_file in formats:
    run("--data", work(data_file), "--save-model", work(model_file), *common)

models = [json.load(open(work(name))) for name in ["model.json"] + [f[2] for f in formats]]
for (name, _, _), other in zip(formats, models[1:]):
    gap = max(abs(a - b) for a, b in zip(models[0]["weights"] + [models[0]["bias"]], other["weights"] + [other["bias"]]))
    if other["features"] != 30 or gap > 1e-6:
        sys.exit(f"FAILED: the model trained from {name} differs from the CSV one (largest weight gap {gap:g})")
if models[0]["feature_names"][:2] != ["mean radius", "mean texture"] or models[0]["standardization"] is None:
    sys.exit("FAILED: the model file lacks the feature names or the standardisation")

# Training on from a saved model continues where it stopped: half the
# iterations, saved, then the other half from the file give the same model.
half = str(int(args.iterations) // 2)
run("--data", work("train.csv"), "--label", "target", "--backend", args.backend, "--iterations", half, "--lr", "0.5",
    "--save-model", work("half.json"))
run("--data", work("train.csv"), "--label", "target", "--backend", args.backend, "--iterations", half, "--lr", "0.5",
    "--load-model", work("half.json"), "--save-model", work("resumed.json"))
resumed = json.load(open(work("resumed.json")))
gap = max(abs(a - b) for a, b in zip(models[0]["weights"] + [models[0]["bias"]], resumed["weights"] + [resumed["bias"]]))
if gap > 1e-5 or resumed["trained"]["iterations"] != int(args.iterations):
    sys.exit(f"FAILED: training on from a saved model differs from training straight through (gap {gap:g}, "
             f"{resumed['trained']['iterations']} iterations recorded)")

run("predict", "--load-model", work("model.json"), "--data", work("test_x.npy"), "--labels", work("test_y.npy"),
    "--out", work("predictions.csv"))
with open(work("predictions.csv")) as f:
    rows = list(csv.DictReader(f))
if len(rows) != len(y_test):
    sys.exit(f"FAILED: {len(rows)} predictions for {len(y_test)} test rows")
porta_accuracy = 100.0 * sum(int(r["class"]) == int(t) for r, t in zip(rows, y_test)) / len(y_test)

print(f"test accuracy on {len(y_test)} held-out rows: porta-logreg {porta_accuracy:.2f}%, "
      f"scikit-learn LogisticRegression {sk_accuracy:.2f}%, {porta_accuracy - sk_accuracy:+.2f} points")
if abs(porta_accuracy - sk_accuracy) > 1.0:
    sys.exit("FAILED: porta-logreg's test accuracy is more than 1 point from scikit-learn's")
print("within 1 point")
