#!/usr/bin/env python3
"""Writes one data set as CSV, LIBSVM and NPY for porta-logreg's streaming tests.

    write_data.py FOLDER [ROWS] [FEATURES]

FOLDER/data.csv (a header; the label column 'label' first), FOLDER/data.svm
(labels -1/+1, zeros left out) and FOLDER/data.npy (float32, the label last)
hold the same rows, generated from a fixed seed with the standard library
alone. The values are written exactly (a few decimal digits), so every
format reads the same float32 numbers. FOLDER/data64.npy (float64) and
FOLDER/data_f.npy (float32 in Fortran order) hold them too: NPY files that
are converted as they are read.
"""
import os
import random
import struct
import sys


def main():
    folder = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 6000
    features = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(21)
    truth = [rng.uniform(-1, 1) for _ in range(features)]
    table = []
    for _ in range(rows):
        x = [round(rng.gauss(3.0, 2.0), 3) if rng.random() > 0.1 else 0.0 for _ in range(features)]
        z = sum(a * (b - 3.0) for a, b in zip(truth, x)) + rng.gauss(0, 0.5)
        table.append((x, 1 if z > 0 else 0))
    with open(os.path.join(folder, "data.csv"), "w") as f:
        f.write(",".join(["label"] + [f"f{j}" for j in range(features)]) + "\n")
        for x, y in table:
            f.write(",".join([str(y)] + [repr(v) for v in x]) + "\n")
    with open(os.path.join(folder, "data.svm"), "w") as f:
        for x, y in table:
            pairs = " ".join(f"{j + 1}:{v!r}" for j, v in enumerate(x) if v != 0)
            f.write(f"{'+1' if y else '-1'} {pairs}\n")
    cols = features + 1
    rows_of = [x + [y] for x, y in table]
    for name, descr, code, fortran in [("data.npy", "<f4", "f", False), ("data64.npy", "<f8", "d", False),
                                       ("data_f.npy", "<f4", "f", True)]:
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%d, %d), }" % (descr, fortran, rows, cols)
        header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
        values = [r[j] for j in range(cols) for r in rows_of] if fortran else [v for r in rows_of for v in r]
        with open(os.path.join(folder, name), "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
            f.write(struct.pack("<%d%s" % (len(values), code), *values))

if __name__ == "__main__":
    main()
