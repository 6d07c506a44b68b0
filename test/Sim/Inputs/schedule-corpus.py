#!/usr/bin/env python3
# ===- schedule-corpus.py - --check-schedule over every kernel of cubins --===#
#
# schedule-corpus.py CUBIN...   (tp-mc and tp-sim from PATH)
#
# Runs every kernel of every cubin under `tp-sim --check-schedule` (one
# block of 64 threads; a 1 MiB zero-filled buffer for each 8-byte
# parameter, 1 for the others; a warp stops after 100,000 instructions, as
# a loop bounded by a parameter may not end with these values) and prints
# one line per kernel:
#   ok      ran, no schedule hazard
#   HAZARD  a register read before its producer's latency or scoreboard
#           allowed it, or a register overwritten while still read
#   skipped the kernel does not run with these inputs (an instruction
#           tp-sim refuses, an access outside the zero buffers, ...): the
#           reason follows
# Shared-memory reports (bytes nothing wrote, copies not yet published)
# depend on the data and the launch, not on the schedule: not counted.
# Ends with the counts; exit 1 on any HAZARD.
# ===----------------------------------------------------------------------===#
import os
import re
import subprocess
import sys
import tempfile

SCHEDULE = re.compile(r"hazard: .*(cycles after its producer|scoreboard|"
                      r"with no write scoreboard)")


def kernels(cubin):
    dump = subprocess.run(["tp-mc", "--dump-cubin", cubin],
                          capture_output=True, text=True, check=True).stdout
    part = dump[dump.find("\nKernels:"):]
    for m in re.finditer(r"^  (\S+): code .*\n    params \(\d+[^)]*\):?(.*)$",
                         part, re.M):
        yield m.group(1), [p.split(":") for p in m.group(2).split()]


def main():
    cubins = sys.argv[1:]
    counts = {"ok": 0, "HAZARD": 0, "skipped": 0}
    with tempfile.TemporaryDirectory() as d:
        zero = os.path.join(d, "zero")
        with open(zero, "wb") as f:
            f.write(bytes(1 << 20))
        for cubin in cubins:
            for name, params in kernels(cubin):
                args = []
                for i, (_, size) in enumerate(params):
                    if size == "8":
                        buf = os.path.join(d, "b%d" % i)
                        args.append("--param=buf:inout=%s:%s" % (zero, buf))
                    else:
                        args.append("--param=bytes=01" + "00" * (int(size) - 1))
                r = subprocess.run(
                    ["tp-sim", cubin, "--kernel", name, "--grid", "1",
                     "--block", "64", "--check-schedule", "--max-hazards=2",
                     "--max-warp-instructions=100000"] +
                    args, capture_output=True, text=True)
                out = r.stdout + r.stderr
                bad = [l for l in out.splitlines() if SCHEDULE.search(l)]
                if bad:
                    kind, why = "HAZARD", bad[0]
                elif "hazards:" in out and ("hazard:" in out or r.returncode == 0):
                    kind, why = "ok", ""
                else:
                    kind = "skipped"
                    why = (out.strip().splitlines() or ["exit %d" % r.returncode])[-1]
                counts[kind] += 1
                print("%s %s %s %s" % (kind, os.path.basename(cubin), name,
                                       why[:300]))
    print("kernels: %d ok, %d with schedule hazards, %d skipped" %
          (counts["ok"], counts["HAZARD"], counts["skipped"]))
    sys.exit(1 if counts["HAZARD"] else 0)


main()
