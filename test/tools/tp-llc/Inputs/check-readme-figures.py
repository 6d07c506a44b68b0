"""Checks README.md's figures for the default kernel against what
`tp-llc -stats` prints now (they went stale once: 632 instructions and
101.75 issue cycles where -stats said 640 and 96.00).

usage: check-readme-figures.py README.md TP-LLC"""
import re
import subprocess
import sys
import tempfile

readme, llc = sys.argv[1], sys.argv[2]
with open(readme) as f:
    text = " ".join(f.read().split())  # the README wraps its lines


def stats(*flags):
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([llc, "-stats", "-filetype=asm", "-o",
                              tmp + "/k.sass"] + list(flags),
                             stderr=subprocess.PIPE, universal_newlines=True,
                             check=True).stderr
    get = lambda key: re.search(r"^ *%s: +([0-9.]+)$" % key, out,
                                re.M).group(1)
    return {"instructions": get("instructions"),
            "loop": get("loop body instructions"),
            "cycles": get("issue cycles per k-step per warp"),
            "registers": get("registers")}


fixed, runtime = stats("--fixed-shape"), stats()
claims = [
    (r"704 -> (\d+) instructions", fixed["instructions"]),
    (r"\d+ -> (\d+) registers \(tp-select's first fit", fixed["registers"]),
    (r"704 -> \d+ instructions, loop (\d+) instructions", fixed["loop"]),
    (r"([0-9.]+) issue cycles per k-step per warp \(`tp-llc --fixed-shape "
     r"-stats`", fixed["cycles"]),
    (r"the run-time-shape default: (\d+) instructions",
     runtime["instructions"]),
    (r"so the loop's copies stay whole and its (\d+) instructions",
     runtime["loop"]),
    (r"Both kernels have \d+ registers and the same loop \((\d+) "
     r"instructions", runtime["loop"]),
    (r"Both kernels have (\d+) registers", runtime["registers"]),
    (r"the same loop \(\d+ instructions, (\d+) issue cycles a k-step",
     str(int(float(runtime["cycles"])))),
]
status = 0
for pattern, now in claims:
    m = re.search(pattern, text)
    if not m:
        print("README: no match for %r" % pattern)
        status = 1
    elif m.group(1) != now:
        print("README says %s where tp-llc -stats says %s: %r" %
              (m.group(1), now, pattern))
        status = 1
print("README figures: %s" % ("stale" if status else "current"))
sys.exit(status)
