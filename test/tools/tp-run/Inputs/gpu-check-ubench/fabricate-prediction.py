#!/usr/bin/env python3
"""FABRICATED timing-model prediction for gpu-check-script.test: NOT a
model run.  Writes what `ubench.py timing` would leave for the stand-in
microbenchmark of DIR (whose PTX tp-sim cannot run) into PRED: its output
slots with the expected values and clocks 30 cycles a step apart, and
modeled.json; and two tp-sim --timing-json files for the timed kernels of
the mock test (0.40 TFLOP/s for tp-large-64, 0.50 for ref-64)."""
import json
import os
import struct
import sys

src, pred = sys.argv[1], sys.argv[2]
b = json.load(open(os.path.join(src, "mock-ubench.expect.json")))
os.makedirs(os.path.join(pred, "ubench"), exist_ok=True)
words = []
for t in range(b["grid"] * b["block"]):
    slot = [0] * b["slot_words"]
    slot[1] = 30 * b["steps"]
    for e in b["expected"]:
        slot[e["word"]] = e["lanes"][t % 32]
    words += slot
with open(os.path.join(pred, "ubench", b["name"] + ".out"), "wb") as f:
    f.write(struct.pack("<%dI" % len(words), *words))
modeled = {"format_version": 1, "card": "FABRICATED H200", "card_key": "h200",
           "target": "sm_90", "source": "FABRICATED prediction (mock test)",
           "benchmarks": {b["name"]: {"blocks": 1, "hazards": 0,
                                      "kernel_cycles": 0,
                                      "kernel_seconds": 0}}}
json.dump(modeled, open(os.path.join(pred, "ubench", "modeled.json"), "w"))
os.makedirs(os.path.join(pred, "bench"), exist_ok=True)
for name, tflops in (("tp-large-64", 0.40), ("ref-64", 0.50)):
    with open(os.path.join(pred, "bench", name + ".json"), "w") as f:
        f.write('{\n  "card": "FABRICATED",\n  "tflops": %r\n}\n' % tflops)
