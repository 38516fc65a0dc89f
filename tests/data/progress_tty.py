#!/usr/bin/env python3
"""porta-logreg's progress line: on a terminal (a pseudo-terminal here) the
line with iteration, loss, samples/s and ETA is drawn in place on stderr and
stands in for the per-block loss lines; with output to a pipe there is none."""
import os
import pty
import re
import subprocess
import sys

logreg = sys.argv[1]
cmd = [logreg, "--backend", "cpu", "--samples", "5000", "--features", "10", "--iterations", "100",
       "--report-every", "10"]

pid, fd = pty.fork()
if pid == 0:
    os.execv(logreg, cmd)
chunks = []
while True:
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    chunks.append(data)
_, status = os.waitpid(pid, 0)
tty = b"".join(chunks).decode(errors="replace")
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit(f"FAILED: porta-logreg on a terminal exited {status}:\n{tty}")
line = r"\r\x1b\[Kiteration 100/100  loss [0-9.]+  [0-9.e+]+ samples/s  ETA [0-9]+ s"
if not re.search(line, tty) or "\r\x1b[Kiteration 10/100" not in tty:
    sys.exit(f"FAILED: no progress line on the terminal:\n{tty!r}")
if re.search(r"\n  iteration +[0-9]+  loss", tty):
    sys.exit(f"FAILED: the per-block loss lines were printed beside the progress line:\n{tty!r}")

piped = subprocess.run(cmd, capture_output=True, text=True)
both = piped.stdout + piped.stderr
if piped.returncode != 0 or "samples/s" in both or "\x1b" in both or "\r" in both:
    sys.exit(f"FAILED: output to a pipe has a progress line or failed:\n{both!r}")
if not re.search(r"\n  iteration +100  loss", piped.stdout):
    sys.exit(f"FAILED: output to a pipe lacks the per-block loss lines:\n{both}")
print("progress line on a terminal, none in a pipe")
