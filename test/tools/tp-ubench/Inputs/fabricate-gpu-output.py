#!/usr/bin/env python3
"""FABRICATED GPU output for testing bench/ubench/ubench.py: NOT a
measurement.  For every benchmark of DIR it writes RESULTS/NAME.out (the
output slots tp-run --dump-c would bring back) and, for the bandwidth ones,
RESULTS/NAME.log (tp-run's summary line), made from the invented "true"
numbers below, so that the report must give exactly these numbers back.
Sweep variants spaced below the invented latency get a wrong result word,
as real hardware would; tput-mufu-w4 is fabricated wrong throughout."""
import glob
import json
import os
import struct
import sys

LATENCY = {"alu-alu": 4, "fma-fma": 5, "imad-imad": 2, "alu-fma": 5,
           "fma-alu": 5, "imadwide-c": 7, "uniform-uniform": 3,
           "hmmaf32-hmma": 30, "hmmaf16-hmma": 24, "hmmaf32-fadd": 23,
           "hmmaf16-hadd2": 24, "hmmaf32-stg": 22, "hmmaf16-stg": 23}
VARIABLE = {"lat-lds": 30, "lat-ldsm-hmma": 33, "lat-ldg": 40,
            "lat-ldgsts": 290, "lat-s2r": 20, "lat-ldc": 27}
INTERVAL = {"hmmaf32": 8, "hmmaf16": 4, "ffma": 1, "iadd3": 1, "mufu": 4}
SHARED = {"shared-lds-1way": 128, "shared-lds-2way": 64,
          "shared-lds-32way": 4, "shared-ldsm-free": 128,
          "shared-ldsm-8way": 16}
GLOBAL_GBPS = {"global-ldgsts-dram": 4000.0, "global-ldgsts-l2": 10000.0}


def cycles_of(b):
    name, steps = b["name"], b["steps"]
    kind = b["kind"]
    if kind == "fixed-sweep":
        return steps * b["spacing"]
    if kind == "variable":
        return steps * (VARIABLE[name] + b["fixed_cycles"])
    if kind == "throughput":
        pipe = name.split("-")[1]
        return INTERVAL[pipe] * steps * b["warps_per_smsp"]
    if kind == "shared-bandwidth":
        return (b["block"] // 32) * b["bytes_per_warp"] // SHARED[name]
    if kind == "barrier":
        warps = b["block"] // 32
        return steps * (20 + 2 * warps + b["fixed_cycles"])
    return 1000


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(src, "*.expect.json"))):
        b = json.load(open(path))
        name = b["name"]
        wrong = name == "tput-mufu-w4"
        if b["kind"] == "fixed-sweep":
            pair = name[len("lat-"):name.rindex("-s")]
            wrong = b["spacing"] < LATENCY[pair]
        cyc = cycles_of(b)
        words = []
        for t in range(b["grid"] * b["block"]):
            slot = [0] * b["slot_words"]
            # The SM's clock: the warps of a block start together (after a
            # barrier); it wraps, t1 - t0 mod 2^32.
            slot[0] = (0xfffff000 + t // b["block"]) & 0xffffffff
            slot[1] = (slot[0] + cyc) & 0xffffffff
            for e in b["expected"]:
                slot[e["word"]] = e["lanes"][t % b["block"] % 32]
            if wrong:
                slot[b["expected"][0]["word"]] ^= 1
            words += slot
        with open(os.path.join(out, name + ".out"), "wb") as f:
            f.write(struct.pack("<%dI" % len(words), *words))
        if b["kind"] == "global-bandwidth":
            ms = b["global_bytes"] / (GLOBAL_GBPS[name] * 1e9) * 1e3
            with open(os.path.join(out, name + ".log"), "w") as f:
                f.write("summary: kernel=%s device=sm_90 verify=none "
                        "median_ms=%.4f tflops=0\n" % (b["kernel"], ms))


main()
