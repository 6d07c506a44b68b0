"""Writes the mock driver's stand-in for a kernel (tools/tp-run/mock): a
text module whose `// tp-mock-kernel` line declares what the manifest
describes, computed on the CPU by the mock, with the defect MODE.

    mock-module.py MANIFEST [MODE] > module.ptx
"""
import json
import sys

man = json.load(open(sys.argv[1]))
mode = sys.argv[2] if len(sys.argv) > 2 else "correct"
fields = [
    "m=%d" % man["m"], "n=%d" % man["n"], "k=%d" % man["k"],
    "a=" + man["layout_a"], "b=" + man["layout_b"],
    "residual=%d" % int(man["residual"]),
    "params=" + ",".join(p["role"] for p in man["params"]),
    "shared=%d" % man["dynamic_shared_bytes"],
    "grid=" + ",".join(map(str, man["grid"])),
    "a_type=" + man.get("a_type", "f16"), "b_type=" + man.get("b_type", "f16"),
    "d_type=" + man.get("d_type", "f32"),
    "relu=%d" % int(man.get("relu", False)),
]
if "tile" in man:
    fields.append("tile=%d,%d" % tuple(man["tile"]))
fields.append("mode=" + mode)
print("// tp-mock-kernel %s %s" % (man["kernel"], " ".join(fields)))
print(".version 7.0")
print(".entry %s" % man["kernel"])
