#!/usr/bin/env python3
"""Checks tp-sim --timing-json reports.

  check.py delta A.json B.json D [TOL]   B.block_cycles - A.block_cycles == D
                                         (within TOL cycles, default 0)
  check.py ratio A.json B.json LO HI     (B - A base-free) ratio of block
                                         cycles B/A in [LO, HI]
  check.py state A.json NAME MIN         stall_reasons[NAME] >= MIN, and
                                         the fractions sum to 1
  check.py keys A.json                   the issue's keys are present
"""
import json
import sys


def load(p):
    with open(p) as f:
        return json.load(f)


def main(a):
    if a[1] == "delta":
        x, y, d = load(a[2]), load(a[3]), int(a[4])
        tol = int(a[5]) if len(a) > 5 else 0
        got = y["block_cycles"] - x["block_cycles"]
        if abs(got - d) > tol:
            sys.exit("delta %d, expected %d +- %d" % (got, d, tol))
        print("delta %d" % got)
    elif a[1] == "ratio":
        x, y = load(a[2]), load(a[3])
        r = y["block_cycles"] / x["block_cycles"]
        if not float(a[4]) <= r <= float(a[5]):
            sys.exit("ratio %.2f outside [%s, %s]" % (r, a[4], a[5]))
        print("ratio %.2f" % r)
    elif a[1] == "state":
        x = load(a[2])
        s = x["stall_reasons"]
        if abs(sum(s.values()) - 1) > 1e-9:
            sys.exit("stall reasons sum to %r" % sum(s.values()))
        if s[a[3]] < float(a[4]):
            sys.exit("%s = %.4f < %s" % (a[3], s[a[3]], a[4]))
        print("%s %.4f" % (a[3], s[a[3]]))
    elif a[1] == "keys":
        x = load(a[2])
        for k in ["card", "kernel_cycles", "kernel_seconds", "tflops",
                  "issue_utilization", "tensor_utilization",
                  "stall_reasons"]:
            if k not in x:
                sys.exit("missing key " + k)
        print("keys ok")
    else:
        sys.exit("unknown check " + a[1])


if __name__ == "__main__":
    main(sys.argv)
