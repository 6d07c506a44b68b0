#!/usr/bin/env python3
# ===- bench/ubench/ubench.py - Run, check and report tp-ubench ------------===#
"""Checks and reports the microbenchmarks tp-ubench writes (docs/ubench.md).

  ubench.py sim DIR RESULTS [--tp-sim PATH] [--check-schedule] [--family F]
      runs every benchmark of DIR that tp-sim supports in its generic mode,
      writes RESULTS/NAME.out (the output slots) and RESULTS/NAME.sim.txt,
      and checks the values; with --check-schedule also that tp-sim flags
      exactly the sweep variants spaced below the latency model.  Exit 1
      when a value is wrong or the schedule check is not as expected.
  ubench.py verify DIR RESULTS [--tp-opt PATH] [--family F]
      writes one pass of each benchmark as machine IR (RESULTS/NAME.mir,
      straight-line: labels and branches left out) and runs
      tp-verify-schedule (RAW, WAR, WAW, scoreboards, shared stages) on it:
      exactly the sweep variants below the model must fail.
  ubench.py check DIR RESULTS [--family F] [--skip-below-model]
      checks the values of RESULTS/NAME.out (e.g. from tp-run --dump-c on a
      GPU); exit 1 when one is wrong or missing.
  ubench.py report DIR RESULTS --card CARD [--date D] [--driver V]
                   [--table FILE] [--card-json FILE]
      (a) a table in the latency model's terms, the model's value beside
      each measurement, and (b) the card file entries (bench/cards/), marked
      "measured on CARD, D, driver V".  Global-bandwidth rows read the
      event time from RESULTS/NAME.log (tp-run --bench's summary line).

Every benchmark checks its own results: a benchmark with a wrong value is
reported WRONG and never timed.  Python 3 standard library only.
"""
import argparse
import datetime
import glob
import json
import os
import re
import struct
import subprocess
import sys

FORMAT_VERSION = 1


def load_benchmarks(directory):
    benches = []
    for path in sorted(glob.glob(os.path.join(directory, "*.expect.json"))):
        with open(path) as f:
            b = json.load(f)
        if b.get("format_version") != FORMAT_VERSION:
            sys.exit("ubench.py: error: %s: format_version %r, expected %d" %
                     (path, b.get("format_version"), FORMAT_VERSION))
        benches.append(b)
    if not benches:
        sys.exit("ubench.py: error: no *.expect.json in %s (run tp-ubench)" %
                 directory)
    return benches


def out_bytes(b):
    return b["grid"] * b["block"] * b["slot_words"] * 4


def read_slots(b, path):
    """The output words per thread, or None when the file is missing or
    has the wrong size."""
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        data = f.read()
    if len(data) != out_bytes(b):
        return None
    n = b["slot_words"]
    words = struct.unpack("<%dI" % (len(data) // 4), data)
    return [words[t * n:(t + 1) * n] for t in range(b["grid"] * b["block"])]


def check_values(b, slots):
    """(ok, message): every result word of every thread as expected."""
    if slots is None:
        return False, "no output (missing or wrong size)"
    bad = 0
    first = None
    for t, slot in enumerate(slots):
        lane = (t % b["block"]) % 32
        for e in b["expected"]:
            want = e["lanes"][lane]
            if slot[e["word"]] != want:
                bad += 1
                if first is None:
                    first = "thread %d word %d: 0x%08x, expected 0x%08x" % (
                        t, e["word"], slot[e["word"]], want)
    if bad:
        return False, "%d wrong value(s), first %s" % (bad, first)
    return True, "right"


def warp_cycles(b, slots):
    """Cycles (clock after - clock before) of lane 0 of every warp."""
    cycles = []
    for t in range(0, len(slots), 32):
        t0, t1 = slots[t][0], slots[t][1]
        cycles.append((t1 - t0) & 0xffffffff)
    return cycles


# ---------------------------------------------------------------------------
# sim


def select(benches, family):
    chosen = [b for b in benches if not family or b["family"] == family]
    if not chosen:
        sys.exit("ubench.py: error: no benchmark of family '%s'" % family)
    return chosen


def run_sim(args):
    benches = select(load_benchmarks(args.dir), args.family)
    os.makedirs(args.results, exist_ok=True)
    failures = 0
    print("%-28s %-8s %-8s %s" % ("benchmark", "values", "hazards", "schedule"))
    for b in benches:
        name = b["name"]
        if not b["sim_supported"]:
            print("%-28s %-8s %-8s %s" % (name, "skipped", "-",
                                          "tp-sim lacks an instruction"))
            continue
        out = os.path.join(args.results, name + ".out")
        if os.path.exists(out):
            os.remove(out)
        cmd = [args.tp_sim, os.path.join(args.dir, name + ".cubin"),
               "--kernel", b["kernel"], "--grid", str(b["grid"]),
               "--block", str(b["block"]),
               "--shared", str(b["dynamic_shared_bytes"]),
               "--param", "buf:out=%s:%d" % (out, out_bytes(b)),
               "--param", "buf:zero=%d" % b["a_bytes"],
               "--param", "buf:zero=%d" % b["b_bytes"]]
        if args.check_schedule:
            cmd.append("--check-schedule")
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        with open(os.path.join(args.results, name + ".sim.txt"), "w") as f:
            f.write(p.stdout)
        m = re.search(r"^hazards: (\d+)$", p.stdout, re.M)
        hazards = int(m.group(1)) if m else None
        ok, msg = check_values(b, read_slots(b, out))
        schedule = "-"
        if args.check_schedule:
            below = (b["kind"] == "fixed-sweep" and
                     b["spacing"] < b["model_cycles"])
            if hazards is None:
                schedule = "UNEXPECTED (tp-sim exit %d)" % p.returncode
            elif below:
                schedule = "flagged (below model)" if hazards else \
                    "UNEXPECTED: below the model but not flagged"
            else:
                schedule = "clean" if hazards == 0 else \
                    "UNEXPECTED: %d hazard(s)" % hazards
            if schedule.startswith("UNEXPECTED"):
                failures += 1
        if not ok:
            failures += 1
        print("%-28s %-8s %-8s %s" % (name, "right" if ok else "WRONG",
                                      "-" if hazards is None else hazards,
                                      schedule))
        if not ok:
            print("    " + msg)
    print("ubench: %d benchmark(s), %d failure(s)" % (len(benches), failures))
    return 1 if failures else 0


# ---------------------------------------------------------------------------
# verify: tp-verify-schedule on one pass of each benchmark


def sass_to_mir(b, text):
    """One pass of the benchmark as machine IR (docs of lib/MIR): the
    kernel's instructions in order up to EXIT, labels and branches left
    out, so that the second pass's loop is checked as straight-line code."""
    target = re.search(r"^\.target (\S+)", text, re.M).group(1)
    regs = re.search(r"^\.regs (\d+)", text, re.M).group(1)
    out = ['sass.func @%s target("%s") regs(%s) smem(%d) {' % (
        b["kernel"], target, regs, b["dynamic_shared_bytes"]), "piece body"]
    for line in text.splitlines():
        m = re.match(r"^  (\S.*?) (\{.*\})$", line)
        if not m:
            continue
        insn, ctl = m.groups()
        if re.search(r"\bBRA\b", insn):
            continue
        out.append("  %s ; %s" % (insn, ctl))
        if insn == "EXIT":
            break
    out.append("}")
    return "\n".join(out) + "\n"


def run_verify(args):
    benches = select(load_benchmarks(args.dir), args.family)
    os.makedirs(args.results, exist_ok=True)
    failures = 0
    for b in benches:
        with open(os.path.join(args.dir, b["name"] + ".sass")) as f:
            mir = sass_to_mir(b, f.read())
        path = os.path.join(args.results, b["name"] + ".mir")
        with open(path, "w") as f:
            f.write(mir)
        p = subprocess.run([args.tp_opt, "-tp-verify-schedule", path, "-o",
                            os.devnull], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        errors = len(re.findall(r": error: ", p.stdout))
        below = b["kind"] == "fixed-sweep" and b["spacing"] < b["model_cycles"]
        if below:
            verdict = "flagged (below model)" if p.returncode and errors else \
                "UNEXPECTED: below the model but not flagged"
        else:
            verdict = "clean" if p.returncode == 0 else \
                "UNEXPECTED: %d error(s)" % errors
        if verdict.startswith("UNEXPECTED"):
            failures += 1
        print("%-28s %s" % (b["name"], verdict))
        if verdict.startswith("UNEXPECTED"):
            for line in p.stdout.splitlines()[:4]:
                print("    " + line)
    print("ubench: %d benchmark(s) verified, %d unexpected" % (len(benches),
                                                              failures))
    return 1 if failures else 0


# ---------------------------------------------------------------------------
# check


def below_model(b):
    return b["kind"] == "fixed-sweep" and b["spacing"] < b["model_cycles"]


def run_check(args):
    benches = select(load_benchmarks(args.dir), args.family)
    if args.skip_below_model:
        benches = [b for b in benches if not below_model(b)]
    failures = 0
    for b in benches:
        ok, msg = check_values(b, read_slots(
            b, os.path.join(args.results, b["name"] + ".out")))
        print("%-28s %s" % (b["name"], "right" if ok else "WRONG: " + msg))
        failures += 0 if ok else 1
    print("ubench: %d benchmark(s), %d wrong or missing" % (len(benches),
                                                            failures))
    return 1 if failures else 0


# ---------------------------------------------------------------------------
# report


def event_ms(results, name):
    path = os.path.join(results, name + ".log")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        m = re.search(r"median_ms=([0-9.]+)", f.read())
    return float(m.group(1)) if m else None


def measure(b, results):
    """(value, unit, note) of one benchmark, or (None, None, why)."""
    slots = read_slots(b, os.path.join(results, b["name"] + ".out"))
    ok, msg = check_values(b, slots)
    if not ok:
        return None, None, "WRONG: " + msg
    cyc = warp_cycles(b, slots)
    kind = b["kind"]
    steps = b["steps"]
    if kind == "fixed-sweep":
        return cyc[0] / steps, "cycles/step", "right"
    if kind == "variable":
        return cyc[0] / steps - b["fixed_cycles"], "cycles", "right"
    if kind == "barrier":
        return max(cyc) / steps - b["fixed_cycles"], "cycles", "right"
    if kind == "throughput":
        return max(cyc) / (steps * b["warps_per_smsp"]), "cycles/op/SMSP", \
            "right"
    if kind == "shared-bandwidth":
        warps = b["block"] // 32
        return warps * b["bytes_per_warp"] / max(cyc), "bytes/cycle/SM", \
            "right"
    if kind == "global-bandwidth":
        ms = event_ms(results, b["name"])
        if ms is None or ms <= 0:
            return None, None, "no event time (RESULTS/%s.log)" % b["name"]
        return b["global_bytes"] / (ms * 1e-3) / 1e9, "GB/s", "right"
    return None, None, "unknown kind " + kind


def sweep_latency(rows):
    """The smallest spacing from which every larger tested spacing gave
    right values: the measured latency of a fixed-latency pair."""
    rows = sorted(rows, key=lambda r: r[0]["spacing"])
    right = [r[1] is not None for r in rows]
    spacings = [r[0]["spacing"] for r in rows]
    if not any(right):
        return None, "> %d (wrong at every spacing tested)" % spacings[-1]
    k = len(right)
    while k > 0 and right[k - 1]:
        k -= 1
    if k == len(right):
        return None, "> %d" % spacings[-1]
    lat = spacings[k]
    if k == 0:
        return lat, "<= %d (right at every spacing tested)" % lat
    return lat, "%d" % lat


def put_card_entry(section, b, value):
    """Card entries are keyed as the timing model looks them up: pipe
    intervals by instruction and warps per sub-partition, barriers by warp
    count, the rest by benchmark."""
    entry = {"benchmark": b["name"], "what": b["measures"], "value": value}
    if b["kind"] == "throughput":
        section.setdefault(b["pair"], {})[str(b["warps_per_smsp"])] = entry
    elif b["kind"] == "barrier":
        section[str(b["block"] // 32)] = entry
    elif b["kind"] == "variable":
        entry["producer_consumer"] = b["pair"]
        section[b["name"][len("lat-"):]] = entry
    else:
        section[b["name"]] = entry


def run_report(args):
    benches = load_benchmarks(args.dir)
    target = benches[0]["target"]
    date = args.date or datetime.date.today().isoformat()
    source = "measured on %s, %s, driver %s" % (args.card, date, args.driver)
    lines = ["# tp-ubench on %s (%s)" % (args.card, target), "",
             source + "; tp-ubench, bench/ubench/ubench.py; docs/ubench.md", ""]
    card = {"format_version": FORMAT_VERSION, "card": args.card,
            "target": target, "source": source,
            "units": {"latency": "cycles (SM clock) from the producer's issue "
                                 "to the earliest issue of a dependent "
                                 "instruction that still reads the right value",
                      "interval": "cycles between two instructions of one "
                                  "pipe on one sub-partition (SMSP)",
                      "shared_bytes_per_cycle": "bytes per SM clock, one SM",
                      "global_gb_per_s": "1e9 bytes per second, whole GPU",
                      "barrier": "cycles per BAR.SYNC of the whole block"},
            "latency": {}, "variable_latency": {}, "interval": {},
            "shared_bytes_per_cycle": {}, "global_gb_per_s": {},
            "barrier_cycles": {}, "wrong": []}

    # (a) fixed-latency pairs: the sweep.
    lines += ["## Fixed-latency RAW pairs (stall sweep: right values from)", "",
              "| pair | model | measured | spacings tested (right/WRONG) |",
              "|---|---|---|---|"]
    sweeps = {}
    for b in benches:
        if b["kind"] == "fixed-sweep":
            key = re.sub(r"-s\d+$", "", b["name"])
            v, _, note = measure(b, args.results)
            sweeps.setdefault(key, []).append((b, v, note))
            if v is None:
                card["wrong"].append(b["name"])
    for key, rows in sweeps.items():
        b0 = rows[0][0]
        lat, text = sweep_latency(rows)
        tested = ", ".join("%d %s" % (r[0]["spacing"],
                                      "right" if r[1] is not None else "WRONG")
                           for r in sorted(rows, key=lambda r: r[0]["spacing"]))
        lines.append("| %s | %d | %s | %s |" % (b0["pair"], b0["model_cycles"],
                                                 text, tested))
        card["latency"][key[len("lat-"):]] = {
            "pair": b0["pair"], "cycles": lat, "measured": text,
            "model": b0["model_cycles"]}

    sections = [
        ("variable", "Variable-latency producers (scoreboard)", "cycles",
         "variable_latency"),
        ("throughput", "Pipe intervals", "cycles/op/SMSP", "interval"),
        ("shared-bandwidth", "Shared-memory bandwidth", "bytes/cycle/SM",
         "shared_bytes_per_cycle"),
        ("global-bandwidth", "Global bandwidth (LDGSTS, event time)", "GB/s",
         "global_gb_per_s"),
        ("barrier", "BAR.SYNC", "cycles", "barrier_cycles")]
    for kind, title, unit, field in sections:
        lines += ["", "## " + title, "",
                  "| benchmark | what | model | measured (%s) |" % unit,
                  "|---|---|---|---|"]
        for b in benches:
            if b["kind"] != kind:
                continue
            v, _, note = measure(b, args.results)
            model = "scoreboard" if kind == "variable" else "-"
            shown = "%.2f" % v if v is not None else note
            lines.append("| %s | %s | %s | %s |" % (b["name"], b["measures"],
                                                    model, shown))
            if v is None:
                card["wrong"].append(b["name"])
                continue
            put_card_entry(card[field], b, round(v, 3))
    text = "\n".join(lines) + "\n"
    if args.table:
        with open(args.table, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.card_json:
        with open(args.card_json, "w") as f:
            json.dump(card, f, indent=2, sort_keys=True)
            f.write("\n")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd")
    s = sub.add_parser("sim", help="run in tp-sim and check")
    s.add_argument("dir")
    s.add_argument("results")
    s.add_argument("--tp-sim", default="tp-sim")
    s.add_argument("--check-schedule", action="store_true")
    s.add_argument("--family", help="only this family (lat-fixed, lat-var, "
                   "tput, shared-bw, global-bw, barrier)")
    v = sub.add_parser("verify", help="tp-verify-schedule on one pass")
    v.add_argument("dir")
    v.add_argument("results")
    v.add_argument("--tp-opt", default="tp-opt")
    v.add_argument("--family")
    c = sub.add_parser("check", help="check dumped outputs")
    c.add_argument("dir")
    c.add_argument("results")
    c.add_argument("--family")
    c.add_argument("--skip-below-model", action="store_true",
                   help="leave out the sweep variants spaced below the model "
                   "(wrong values there are findings, not failures)")
    r = sub.add_parser("report", help="table and card file")
    r.add_argument("dir")
    r.add_argument("results")
    r.add_argument("--card", required=True)
    r.add_argument("--date")
    r.add_argument("--driver", default="unknown")
    r.add_argument("--table")
    r.add_argument("--card-json")
    args = ap.parse_args()
    if args.cmd == "sim":
        return run_sim(args)
    if args.cmd == "verify":
        return run_verify(args)
    if args.cmd == "check":
        return run_check(args)
    if args.cmd == "report":
        return run_report(args)
    ap.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
