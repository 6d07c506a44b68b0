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
                   [--predicted MODELLED] [--table FILE] [--card-json FILE]
      (a) a table in the latency model's terms, the model's value beside
      each measurement, and (b) the card file entries (bench/cards/), marked
      "measured on CARD, D, driver V" (or, for RESULTS of `timing`, "modeled
      by tp-sim --timing=CARD").  Global-bandwidth rows read the event time
      from RESULTS/NAME.log (tp-run --bench's summary line).  --predicted:
      the timing model's results of the same benchmarks, set beside each
      measurement with the error measured / predicted - 1.
  ubench.py timing DIR MODELLED --card CARD [--tp-sim PATH] [--family F]
      runs every benchmark under tp-sim --timing=CARD and writes what a
      device run would: the slots, their clock words the cycles the model
      issued each CS2R SR_CLOCKLO in, the bandwidth ones' event time, and
      MODELLED/modeled.json.  Exit 1 when a value is wrong or the model's
      timing hazards are not exactly in the sweep variants below the model.
  ubench.py compare DIR RESULTS [--card CARD] [--expected FILE]
                    [--tolerance PCT] [--output FILE]
      every number of the report beside the card file's own (for a
      fixed-latency pair the latency model's) with the error; exit 1 on a
      disagreement FILE does not list, or on a listed one that agrees.
  ubench.py all OUT [--tp-ubench PATH] [--tp-sim PATH] [--expected FILE]
      tp-ubench for sm_86 and sm_90, then timing, report and compare on
      each target's cards (RTX 3090, A100; H100 SXM, H200) into OUT/CARD.

Every benchmark checks its own results: a benchmark with a wrong value is
reported WRONG and never timed.  Python 3 standard library only.
"""
import argparse
import contextlib
import datetime
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time

FORMAT_VERSION = 1
MODELED = "modeled.json"
HERE = os.path.dirname(os.path.abspath(__file__))
CARDS_DIR = os.path.join(HERE, "..", "cards")


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


def check_values(b, slots, blocks=None):
    """(ok, message): every result word of every thread (of the first
    \p blocks blocks, when given: the ones a sampled tp-sim run ran) as
    expected."""
    if slots is None:
        return False, "no output (missing or wrong size)"
    if blocks is not None:
        slots = slots[:blocks * b["block"]]
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


def block_span(b, slots):
    """Cycles from the first warp's clock before the body to the last
    warp's clock after it, in block 0 (the SM's clock, shared by its warps):
    the time the block's warps took together, whichever order a scheduler
    ran them in."""
    ref = slots[0][0]
    start = end = 0
    for t in range(0, b["block"], 32):
        t0 = (slots[t][0] - ref + 2 ** 31) % 2 ** 32 - 2 ** 31
        t1 = t0 + ((slots[t][1] - slots[t][0]) & 0xffffffff)
        start, end = min(start, t0), max(end, t1)
    return end - start


# ---------------------------------------------------------------------------
# sim


def need_tool(path, option):
    """\p path (a tool ubench.py runs) or an error naming \p option."""
    if not shutil.which(path):
        sys.exit("ubench.py: error: no %s at '%s' (build it, put it on PATH, "
                 "or give %s)" % (os.path.basename(path), path, option))
    return path


def select(benches, family):
    """The benchmarks of \p family (a comma-separated list; all when
    empty)."""
    wanted = family.split(",") if family else None
    chosen = [b for b in benches if not wanted or b["family"] in wanted]
    if not chosen:
        sys.exit("ubench.py: error: no benchmark of family '%s'" % family)
    return chosen


def sim_command(tp_sim, directory, b, out):
    """tp-sim's generic mode on benchmark \p b, the slots written to out."""
    return [tp_sim, os.path.join(directory, b["name"] + ".cubin"),
            "--kernel", b["kernel"], "--grid", str(b["grid"]),
            "--block", str(b["block"]),
            "--shared", str(b["dynamic_shared_bytes"]),
            "--param", "buf:out=%s:%d" % (out, out_bytes(b)),
            "--param", "buf:zero=%d" % b["a_bytes"],
            "--param", "buf:zero=%d" % b["b_bytes"]]


def run_sim(args):
    benches = select(load_benchmarks(args.dir), args.family)
    need_tool(args.tp_sim, "--tp-sim")
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
        cmd = sim_command(args.tp_sim, args.dir, b, out)
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
# timing: the benchmarks under tp-sim's timing model


def find_card(name):
    """(path, key, data) of card \p name: a file (a '/' or .json), or
    bench/cards/NAME.json; key is the file's stem (rtx3090, h200)."""
    path = name if ("/" in name or name.endswith(".json")) else \
        os.path.join(CARDS_DIR, name + ".json")
    if not os.path.exists(path):
        sys.exit("ubench.py: error: no card '%s' (no %s)" % (name, path))
    with open(path) as f:
        data = json.load(f)
    return path, os.path.splitext(os.path.basename(path))[0], data


def model_clocks(b, out, reads, blocks):
    """Replaces the two clock words of every thread of the first \p blocks
    blocks in \p out by the cycles the timing model issued those CS2R
    SR_CLOCKLO in.  tp-sim's functional clock is the warp's count of issued
    instructions; the model's clock_reads map (block, warp, that count) to
    the modelled cycle.  None, or what does not match."""
    cycle = {(r[0], r[1], r[2]): r[3] for r in reads}
    with open(out, "rb") as f:
        data = bytearray(f.read())
    n = b["slot_words"]
    for t in range(blocks * b["block"]):
        block, warp = t // b["block"], (t % b["block"]) // 32
        for word in (0, 1):
            at = (t * n + word) * 4
            v = struct.unpack_from("<I", data, at)[0]
            c = cycle.get((block, warp, v))
            if c is None:
                return ("thread %d word %d: %d is no clock read of warp %d "
                        "of block %d" % (t, word, v, warp, block))
            struct.pack_into("<I", data, at, c & 0xffffffff)
    with open(out, "wb") as f:
        f.write(data)
    return None


def schedule_verdict(b, hazards, held):
    """The timing model must find a hazard in exactly the sweep variants
    spaced below the latency model, but for those a pipe held further
    apart (\p held: their cycles per step), which test no spacing."""
    if below_model(b):
        if held is not None and not hazards:
            return "held to %.1f cycles/step (no spacing tested)" % held
        return "flagged (below model)" if hazards else \
            "UNEXPECTED: below the model but not flagged"
    return "clean" if hazards == 0 else "UNEXPECTED: %d hazard(s)" % hazards


def time_one(args, card_path, b):
    """Runs \p b under tp-sim --timing; (entry for modeled.json, values
    verdict, schedule verdict) or (None, why, None)."""
    name = b["name"]
    out = os.path.join(args.results, name + ".out")
    tj = os.path.join(args.results, name + ".timing.json")
    for f in (out, tj):
        if os.path.exists(f):
            os.remove(f)
    cmd = sim_command(args.tp_sim, args.dir, b, out) + [
        "--timing=" + card_path, "--timing-json=" + tj]
    # The bandwidth benchmarks' grids are several waves of blocks: the
    # model needs the blocks one SM holds (their values are checked).
    sampled = b["kind"] == "global-bandwidth"
    if sampled:
        cmd.append("--timing-sample")
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    with open(os.path.join(args.results, name + ".sim.txt"), "w") as f:
        f.write(p.stdout)
    if p.returncode not in (0, 1) or not os.path.exists(tj):
        return None, "tp-sim exit %d: %s" % (
            p.returncode, " / ".join(p.stdout.splitlines()[:3])), None
    with open(tj) as f:
        t = json.load(f)
    if p.returncode == 1 and not t["hazards"]:
        return None, "tp-sim exit 1 without a timing hazard", None
    # --timing-sample runs the blocks modelled on one SM (resident_blocks:
    # the occupancy, or ceil(grid / SMs) when fewer).
    blocks = t["resident_blocks"] if sampled else b["grid"]
    err = model_clocks(b, out, t["clock_reads"], blocks)
    if err:
        return None, "clocks: " + err, None
    if b["kind"] == "global-bandwidth":
        with open(os.path.join(args.results, name + ".log"), "w") as f:
            f.write("summary: kernel=%s modeled=%s median_ms=%.9f\n" % (
                b["kernel"], os.path.basename(card_path),
                t["kernel_seconds"] * 1e3))
    entry = {"blocks": blocks, "hazards": t["hazards"],
             "kernel_cycles": t["kernel_cycles"],
             "kernel_seconds": t["kernel_seconds"]}
    ok, msg = check_values(b, read_slots(b, out), blocks)
    held = held_apart(b, args.results, None) if b["kind"] == "fixed-sweep" \
        else None
    return entry, "right" if ok else "WRONG: " + msg, \
        schedule_verdict(b, t["hazards"], held)


def run_timing(args):
    benches = select(load_benchmarks(args.dir), args.family)
    need_tool(args.tp_sim, "--tp-sim")
    card_path, key, card = find_card(args.card)
    os.makedirs(args.results, exist_ok=True)
    modeled = {"format_version": FORMAT_VERSION, "card": card["name"],
               "card_key": key, "target": benches[0]["target"],
               "source": "modeled by tp-sim --timing=%s (bench/cards/%s.json):"
                         " the timing model's prediction, not a measurement" %
                         (key, key),
               "benchmarks": {}}
    failures = 0
    print("%-28s %-8s %-8s %s" % ("benchmark", "values", "hazards", "schedule"))
    for b in benches:
        name = b["name"]
        if not b["sim_supported"]:
            modeled["benchmarks"][name] = {
                "skipped": "tp-sim lacks an instruction of it"}
            print("%-28s %-8s %-8s %s" % (name, "skipped", "-",
                                          "tp-sim lacks an instruction"))
            continue
        entry, values, schedule = time_one(args, card_path, b)
        if entry is None:
            failures += 1
            print("%-28s FAILED   %s" % (name, values))
            continue
        modeled["benchmarks"][name] = entry
        bad = values != "right" or schedule.startswith("UNEXPECTED")
        failures += 1 if bad else 0
        print("%-28s %-8s %-8s %s" % (name, values.split(":")[0],
                                      entry["hazards"], schedule))
        if values != "right":
            print("    " + values)
    with open(os.path.join(args.results, MODELED), "w") as f:
        json.dump(modeled, f, indent=2, sort_keys=True)
        f.write("\n")
    print("ubench: %d benchmark(s) modelled on %s, %d failure(s)" % (
        len(benches), card["name"], failures))
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
    need_tool(args.tp_opt, "--tp-opt")
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
    # Results of `timing`: the blocks the model ran, not the skipped ones.
    modeled = load_modeled(args.results)
    failures = 0
    for b in benches:
        info = modeled["benchmarks"].get(b["name"], {}) if modeled else {}
        if modeled is not None and "blocks" not in info:
            print("%-28s not modelled" % b["name"])
            continue
        ok, msg = check_values(b, read_slots(
            b, os.path.join(args.results, b["name"] + ".out")),
            info.get("blocks"))
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


def measure(b, results, modeled=None):
    """(value, unit, note) of one benchmark, or (None, None, why).  With
    \p modeled (RESULTS/modeled.json of `ubench.py timing`), a benchmark
    the model did not run is NOT MODELED, and one in which the timing model
    found a read before its latency elapsed is WRONG (what the hardware
    would show), like one with a wrong value."""
    info = None
    if modeled is not None:
        info = modeled["benchmarks"].get(b["name"])
        if info is None:
            return None, None, "NOT MODELED: not run by ubench.py timing"
        if "skipped" in info:
            return None, None, "NOT MODELED: " + info["skipped"]
    slots = read_slots(b, os.path.join(results, b["name"] + ".out"))
    blocks = info["blocks"] if info else None
    ok, msg = check_values(b, slots, blocks)
    if not ok:
        return None, None, "WRONG: " + msg
    if info and info["hazards"]:
        return None, None, ("WRONG: the timing model finds %d read(s) before "
                            "the latency elapsed" % info["hazards"])
    if blocks is not None:
        slots = slots[:blocks * b["block"]]
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
        return block_span(b, slots) / (steps * b["warps_per_smsp"]), \
            "cycles/op/SMSP", "right"
    if kind == "shared-bandwidth":
        warps = b["block"] // 32
        return warps * b["bytes_per_warp"] / block_span(b, slots), \
            "bytes/cycle/SM", "right"
    if kind == "global-bandwidth":
        ms = event_ms(results, b["name"])
        if ms is None or ms <= 0:
            return None, None, "no event time (RESULTS/%s.log)" % b["name"]
        return b["global_bytes"] / (ms * 1e-3) / 1e9, "GB/s", "right"
    return None, None, "unknown kind " + kind


def held_apart(b, results, modeled):
    """For a single-pair chain (fixed_cycles 0), the cycles per step when a
    pipe held its instructions further apart than the spacing tested (by
    more than the clock reads' one cycle a step): the variant then did not
    test its spacing.  None otherwise (also when there is no output)."""
    if b["fixed_cycles"]:
        return None
    slots = read_slots(b, os.path.join(results, b["name"] + ".out"))
    if slots is None or (modeled is not None and
                         "blocks" not in modeled["benchmarks"].get(
                             b["name"], {})):
        return None
    cps = warp_cycles(b, slots)[0] / b["steps"]
    return cps if cps > b["spacing"] + 1 else None


def sweep_latency(rows):
    """The smallest spacing from which every larger tested spacing gave
    right values: the measured latency of a fixed-latency pair.  Rows are
    (benchmark, value, note, held): variants a pipe held apart (held, the
    cycles per step) tested no spacing and are left out."""
    rows = sorted([r for r in rows if r[3] is None],
                  key=lambda r: r[0]["spacing"])
    if not rows:
        return None, "not measurable: a pipe issued the chain further apart " \
            "than every spacing tested"
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


def tested_text(r):
    b, v, _, held = r
    text = "%d %s" % (b["spacing"], "right" if v is not None else "WRONG")
    if held is not None:
        text += " (held to %.1f cycles/step)" % held
    return text


def put_card_entry(section, b, value, predicted=None):
    """Card entries are keyed as the timing model looks them up: pipe
    intervals by instruction and warps per sub-partition, barriers by warp
    count, the rest by benchmark.  \p predicted: the timing model's value,
    when the report has predictions."""
    entry = {"benchmark": b["name"], "what": b["measures"], "value": value}
    if predicted is not None:
        entry["predicted"] = predicted
    if b["kind"] == "throughput":
        section.setdefault(b["pair"], {})[str(b["warps_per_smsp"])] = entry
    elif b["kind"] == "barrier":
        section[str(b["block"] // 32)] = entry
    elif b["kind"] == "variable":
        entry["producer_consumer"] = b["pair"]
        section[b["name"][len("lat-"):]] = entry
    else:
        section[b["name"]] = entry


REPORT_SECTIONS = [
    ("variable", "Variable-latency producers (scoreboard)", "cycles",
     "variable_latency"),
    ("throughput", "Pipe intervals", "cycles/op/SMSP", "interval"),
    ("shared-bandwidth", "Shared-memory bandwidth", "bytes/cycle/SM",
     "shared_bytes_per_cycle"),
    ("global-bandwidth", "Global bandwidth (LDGSTS, event time)", "GB/s",
     "global_gb_per_s"),
    ("barrier", "BAR.SYNC", "cycles", "barrier_cycles")]

CARD_UNITS = {
    "latency": "cycles (SM clock) from the producer's issue to the earliest "
               "issue of a dependent instruction that still reads the right "
               "value",
    "interval": "cycles between two instructions of one pipe on one "
                "sub-partition (SMSP)",
    "shared_bytes_per_cycle": "bytes per SM clock, one SM",
    "global_gb_per_s": "1e9 bytes per second, whole GPU",
    "barrier": "cycles per BAR.SYNC of the whole block"}


def sweep_key(b):
    return re.sub(r"-s\d+$", "", b["name"])


def unmeasured(card, name, note):
    """Files a benchmark without a number: wrong, or not modelled."""
    card["not_modeled" if note.startswith("NOT MODELED") else
         "wrong"].append(name)


def prediction_cells(predicted, key, v):
    """With the model's values \p predicted: the cells a row gets beside
    its measurement \p v, the prediction and the error measured /
    predicted - 1 ("" without predictions)."""
    if predicted is None:
        return ""
    pv, note = predicted.get(key, (None, "not predicted"))
    if pv is None:
        return " %s | - |" % note.split(":")[0]
    err = "%+.1f%%" % ((v / pv - 1) * 100) if v is not None and pv else "-"
    return " %.2f | %s |" % (pv, err)


def build_report(benches, results, card_name, source, modeled,
                 predicted=None):
    """(table lines, card dict, values): the report of RESULTS.  values maps
    each sweep (lat-PAIR) and every other benchmark to (value, note).  With
    \p predicted (the values of the model's report on the same benchmarks)
    each row and card entry also gets the prediction and the error."""
    more = " predicted | error |" if predicted is not None else ""
    rule = "---|---|" if predicted is not None else ""
    lines = ["# tp-ubench on %s (%s)" % (card_name, benches[0]["target"]), "",
             source + "; tp-ubench, bench/ubench/ubench.py; docs/ubench.md", ""]
    card = {"format_version": FORMAT_VERSION, "card": card_name,
            "target": benches[0]["target"], "source": source,
            "units": CARD_UNITS, "latency": {}, "variable_latency": {},
            "interval": {}, "shared_bytes_per_cycle": {},
            "global_gb_per_s": {}, "barrier_cycles": {}, "wrong": []}
    if modeled is not None:
        card["not_modeled"] = []
    values = {}
    # (a) fixed-latency pairs: the sweep.
    lines += ["## Fixed-latency RAW pairs (stall sweep: right values from)", "",
              "| pair | model | measured | spacings tested (right/WRONG) |" +
              more, "|---|---|---|---|" + rule]
    sweeps = {}
    for b in benches:
        if b["kind"] == "fixed-sweep":
            v, _, note = measure(b, results, modeled)
            sweeps.setdefault(sweep_key(b), []).append(
                (b, v, note, held_apart(b, results, modeled)))
            values[b["name"]] = (v, note)
            if v is None:
                unmeasured(card, b["name"], note)
    for key, rows in sweeps.items():
        b0 = rows[0][0]
        lat, text = sweep_latency(rows)
        if any(r[2].startswith("NOT MODELED") for r in rows):
            lat, text = None, "NOT MODELED: not every variant was modelled"
        values[key] = (lat, text)
        tested = ", ".join(tested_text(r) for r in
                           sorted(rows, key=lambda r: r[0]["spacing"]))
        lines.append("| %s | %d | %s | %s |" % (
            b0["pair"], b0["model_cycles"], text, tested) +
            prediction_cells(predicted, key, lat))
        card["latency"][key[len("lat-"):]] = {
            "pair": b0["pair"], "cycles": lat, "measured": text,
            "model": b0["model_cycles"]}
        if predicted is not None:
            card["latency"][key[len("lat-"):]]["predicted"] = \
                predicted.get(key, (None,))[0]
    for kind, title, unit, field in REPORT_SECTIONS:
        lines += ["", "## " + title, "",
                  "| benchmark | what | model | measured (%s) |" % unit + more,
                  "|---|---|---|---|" + rule]
        for b in benches:
            if b["kind"] != kind:
                continue
            v, _, note = measure(b, results, modeled)
            values[b["name"]] = (v, note)
            model = "scoreboard" if kind == "variable" else "-"
            shown = "%.2f" % v if v is not None else note
            lines.append("| %s | %s | %s | %s |" % (
                b["name"], b["measures"], model, shown) +
                prediction_cells(predicted, b["name"], v))
            if v is None:
                unmeasured(card, b["name"], note)
                continue
            pv = None if predicted is None else \
                predicted.get(b["name"], (None,))[0]
            put_card_entry(card[field], b, round(v, 3),
                           None if pv is None else round(pv, 3))
    return lines, card, values


def load_modeled(results):
    """RESULTS/modeled.json (written by `ubench.py timing`), or None for
    results from a device."""
    path = os.path.join(results, MODELED)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        m = json.load(f)
    if m.get("format_version") != FORMAT_VERSION:
        sys.exit("ubench.py: error: %s: format_version %r, expected %d" %
                 (path, m.get("format_version"), FORMAT_VERSION))
    return m


def run_report(args):
    benches = load_benchmarks(args.dir)
    modeled = load_modeled(args.results)
    if modeled is not None:
        card_name = args.card or modeled["card"]
        source = modeled["source"]
    else:
        if not args.card:
            sys.exit("ubench.py: error: report: --card is required for "
                     "results from a device")
        card_name = args.card
        date = args.date or datetime.date.today().isoformat()
        source = "measured on %s, %s, driver %s" % (card_name, date,
                                                     args.driver)
    predicted = None
    if args.predicted:
        pmodeled = load_modeled(args.predicted)
        if pmodeled is None:
            sys.exit("ubench.py: error: report: --predicted %s holds no %s "
                     "(ubench.py timing writes it)" % (args.predicted, MODELED))
        _, _, predicted = build_report(benches, args.predicted,
                                       pmodeled["card"], "", pmodeled)
    lines, card, _ = build_report(benches, args.results, card_name, source,
                                  modeled, predicted)
    if predicted is not None:
        lines[2] = source + "; predicted: " + pmodeled["source"] + \
            lines[2][len(source):]
        card["predicted_by"] = pmodeled["source"]
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


# ---------------------------------------------------------------------------
# compare: the report's numbers against the card's own


SHARED_WAYS = {"shared-lds-1way": 1, "shared-lds-2way": 2,
               "shared-lds-32way": 32, "shared-ldsm-free": 1,
               "shared-ldsm-8way": 8}
INTERVAL_PIPE = {"HMMA.16816.F32": "tensor_16816_f32",
                 "HMMA.16816.F16": "tensor_16816_f16", "FFMA": "fma",
                 "IADD3": "alu", "MUFU.RCP": "mufu"}


def card_number(card, key):
    return card[key][0]


def variable_reference(name, card):
    lat = card_number(card, "shared_latency")
    bpc = card_number(card, "shared_bytes_per_clk")
    mufu = card["pipes"]["mufu"][0]
    table = {
        "lat-lds": (lat + 128 / bpc,
                    "shared_latency + 128 B / shared_bytes_per_clk"),
        "lat-ldsm-hmma": (lat + 512 / bpc,
                          "shared_latency + 512 B / shared_bytes_per_clk"),
        "lat-ldg": (card_number(card, "l1_latency"), "l1_latency (L1 hit)"),
        "lat-ldgsts": (card_number(card, "l2_latency") + 512 / card_number(
            card, "l2_bytes_per_clk_per_sm"), "l2_latency + 512 B / "
            "l2_bytes_per_clk_per_sm (.BYPASS: L2 hit)"),
        "lat-s2r": (mufu, "pipes.mufu latency"),
        "lat-ldc": (mufu, "pipes.mufu latency")}
    return table.get(name)


def reference(b, card):
    """(value, source): the card's own number (for a fixed-latency pair the
    latency model's, which the timing model uses for register dependencies)
    for what \p b measures; (None, why) when neither has one."""
    name, kind = b["name"], b["kind"]
    ref = None
    if kind == "fixed-sweep":
        ref = b["model_cycles"], "latency model"
    elif kind == "variable":
        ref = variable_reference(name, card)
    elif kind == "throughput" and b["pair"] in INTERVAL_PIPE:
        key = INTERVAL_PIPE[b["pair"]]
        ref = card["pipes"][key][1], "pipes.%s interval" % key
    elif kind == "shared-bandwidth" and name in SHARED_WAYS:
        ways = SHARED_WAYS[name]
        ref = (card_number(card, "shared_bytes_per_clk") / ways,
               "shared_bytes_per_clk / %d" % ways)
    elif name == "global-ldgsts-l2":
        ref = (card_number(card, "l2_bytes_per_clk_per_sm") *
               card_number(card, "sms") * card_number(card, "clock_ghz"),
               "l2_bytes_per_clk_per_sm x sms x clock_ghz")
    elif name == "global-ldgsts-dram":
        ref = card_number(card, "dram_gbytes_per_s"), "dram_gbytes_per_s"
    elif kind == "barrier":
        ref = None, "the card has no BAR.SYNC cost"
    if ref is None:
        sys.exit("ubench.py: error: compare: no card reference for benchmark "
                 "'%s' (add one to reference())" % name)
    return ref


def issue_bound(directory, b):
    """True when the timed body of \p b waits on no scoreboard: its cycles
    per step are then its stalls' (spacing + fixed_cycles), a check of the
    clock.  (The STG sweeps wait for a store's register read.)"""
    with open(os.path.join(directory, b["name"] + ".sass")) as f:
        text = f.read()
    body = text[text.index("SR_CLOCKLO"):text.rindex("SR_CLOCKLO")]
    return "wait=" not in body.split("\n", 1)[1]


def compare_rows(directory, benches, results, card, values):
    """(row, reference, source, value, note) for every number of the
    report: each sweep's latency, the clock of its variant at the model's
    spacing, every other benchmark."""
    rows = []
    seen = set()
    for b in benches:
        if b["kind"] != "fixed-sweep":
            ref, src = reference(b, card)
            rows.append((b["name"], ref, src) + values[b["name"]])
            continue
        key = sweep_key(b)
        if key not in seen:
            seen.add(key)
            rows.append((key, b["model_cycles"], "latency model") +
                        values[key])
        if b["spacing"] == b["model_cycles"] and issue_bound(directory, b):
            slots = read_slots(b, os.path.join(results, b["name"] + ".out"))
            cps = warp_cycles(b, slots)[0] / b["steps"] if slots else None
            rows.append((b["name"] + ":clock", b["spacing"] + b["fixed_cycles"],
                         "issue cycles per step (spacing + fixed)", cps,
                         "cycles/step" if cps is not None else "no output"))
    return rows


def load_expected(path):
    """{(card key, row): reason} of the expected-disagreements file."""
    expected = {}
    if not path:
        return expected
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                sys.exit("%s:%d: error: expected 'CARD ROW reason'" % (path, n))
            if (parts[0], parts[1]) in expected:
                sys.exit("%s:%d: error: '%s %s' listed twice" % (
                    path, n, parts[0], parts[1]))
            expected[(parts[0], parts[1])] = parts[2]
    return expected


def verdict_of(ref, value, note, tolerance):
    """(verdict, error text)."""
    if value is None:
        return ("NOT MODELED" if note.startswith("NOT MODELED") else
                "NO VALUE"), "-"
    if ref is None:
        return "no reference", "-"
    err = abs(value - ref) / ref * 100 if ref else float("inf")
    return ("agrees" if err <= tolerance else "DISAGREES"), "%.1f%%" % err


def run_compare(args):
    benches = select(load_benchmarks(args.dir), args.family)
    modeled = load_modeled(args.results)
    if not args.card and modeled is None:
        sys.exit("ubench.py: error: compare: --card is required for results "
                 "from a device")
    _, key, card = find_card(args.card or modeled["card_key"])
    if modeled is not None:
        benches = [b for b in benches if b["name"] in modeled["benchmarks"]]
    _, _, values = build_report(benches, args.results, card["name"], "",
                                modeled)
    expected = load_expected(args.expected)
    counts = {"agrees": 0, "expected": 0, "new": 0, "fixed": 0, "none": 0}
    lines = ["# tp-ubench against the card file: %s (%s)" % (card["name"], key),
             "", "Tolerance %g%%; reference: the card's own number, for "
             "fixed-latency pairs the latency model's." % args.tolerance, "",
             "| benchmark | reference | value | error | verdict |",
             "|---|---|---|---|---|"]
    for row, ref, src, value, note in compare_rows(
            args.dir, benches, args.results, card, values):
        verdict, err = verdict_of(ref, value, note, args.tolerance)
        reason = expected.get((key, row))
        if verdict == "no reference":
            counts["none"] += 1
        elif verdict == "agrees":
            counts["fixed" if reason else "agrees"] += 1
            if reason:
                verdict = "FIXED: agrees, remove it from the expected file"
        elif reason:
            counts["expected"] += 1
            verdict += " (expected: %s)" % reason
        else:
            counts["new"] += 1
            verdict = "NEW: " + verdict
        shown_ref = "-" if ref is None else "%.4g" % ref
        shown = ("%.4g" % value) if value is not None else note
        lines.append("| %s | %s (%s) | %s | %s | %s |" % (
            row, shown_ref, src, shown, err, verdict))
    lines.append("")
    lines.append("ubench compare %s: %d agree, %d expected disagreement(s), "
                 "%d new, %d fixed, %d without a card number" % (
                     key, counts["agrees"], counts["expected"], counts["new"],
                     counts["fixed"], counts["none"]))
    text = "\n".join(lines) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    sys.stdout.write(text)
    return 1 if counts["new"] or counts["fixed"] else 0


# ---------------------------------------------------------------------------
# all: the whole comparison, every target on each of its cards


TARGET_CARDS = [("sm_86", ["rtx3090", "a100"]), ("sm_90", ["h100-sxm", "h200"])]


def quietly(fn, args, path):
    """Runs subcommand \p fn with its output in \p path; its exit code."""
    with open(path, "w") as f, contextlib.redirect_stdout(f):
        return fn(args)


def run_all(args):
    need_tool(args.tp_ubench, "--tp-ubench")
    need_tool(args.tp_sim, "--tp-sim")
    failures = 0
    print("%-9s %-6s %-8s %-8s %s" % ("card", "target", "timing", "seconds",
                                      "compare"))
    wanted = args.cards.split(",") if args.cards else None
    known = [k for _, cards in TARGET_CARDS for k in cards]
    for key in wanted or []:
        if key not in known:
            sys.exit("ubench.py: error: all: unknown card '%s' (%s)" % (
                key, ", ".join(known)))
    for target, cards in TARGET_CARDS:
        cards = [k for k in cards if not wanted or k in wanted]
        if not cards:
            continue
        d = os.path.join(args.out, target)
        cmd = [args.tp_ubench, "-mcpu=" + target, "-o", d]
        if args.global_iterations:
            cmd.append("--global-iterations=%d" % args.global_iterations)
        if subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode:
            sys.exit("ubench.py: error: %s failed" % " ".join(cmd))
        for key in cards:
            r = os.path.join(args.out, key)
            start = time.time()
            rc = quietly(run_timing, argparse.Namespace(
                dir=d, results=r, card=key, tp_sim=args.tp_sim, family=None),
                os.path.join(r + ".timing.txt"))
            secs = time.time() - start
            quietly(run_report, argparse.Namespace(
                dir=d, results=r, card=None, date=None, driver=None,
                predicted=None,
                table=os.path.join(r, "table.md"),
                card_json=os.path.join(r, "card.json")), os.devnull)
            crc = quietly(run_compare, argparse.Namespace(
                dir=d, results=r, card=None, expected=args.expected,
                tolerance=args.tolerance, family=None, output=None),
                os.path.join(r, "compare.md"))
            with open(os.path.join(r, "compare.md")) as f:
                summary = f.read().strip().splitlines()[-1]
            failures += (rc != 0) + (crc != 0)
            print("%-9s %-6s %-8s %-8.1f %s" % (
                key, target, "ok" if rc == 0 else "FAILED", secs,
                summary.split(": ", 1)[1]))
    print("ubench all: %d failure(s); tables in %s/CARD/{table,compare}.md" %
          (failures, args.out))
    return 1 if failures else 0


FAMILY_HELP = ("only these families, comma-separated (lat-fixed, lat-var, "
               "tput, shared-bw, global-bw, barrier)")


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd")
    s = sub.add_parser("sim", help="run in tp-sim and check")
    s.add_argument("dir")
    s.add_argument("results")
    s.add_argument("--tp-sim", default="tp-sim")
    s.add_argument("--check-schedule", action="store_true")
    s.add_argument("--family", help=FAMILY_HELP)
    t = sub.add_parser("timing", help="run under tp-sim --timing=CARD")
    t.add_argument("dir")
    t.add_argument("results")
    t.add_argument("--card", required=True,
                   help="a card of bench/cards (rtx3090, a100, h100-sxm, "
                   "h200) or a card file")
    t.add_argument("--tp-sim", default="tp-sim")
    t.add_argument("--family", help=FAMILY_HELP)
    a = sub.add_parser("all", help="timing, report and compare for every "
                       "target on each of its cards")
    a.add_argument("out")
    a.add_argument("--tp-ubench", default="tp-ubench")
    a.add_argument("--tp-sim", default="tp-sim")
    a.add_argument("--expected",
                   default=os.path.join(HERE, "expected-disagreements.txt"))
    a.add_argument("--tolerance", type=float, default=5.0)
    a.add_argument("--global-iterations", type=int,
                   help="tp-ubench's (default its own, 256)")
    a.add_argument("--cards", help="only these cards, comma-separated "
                   "(rtx3090, a100, h100-sxm, h200)")
    k = sub.add_parser("compare", help="the report against the card file")
    k.add_argument("dir")
    k.add_argument("results")
    k.add_argument("--card", help="the card (default: the modelled one)")
    k.add_argument("--expected", help="the expected-disagreements file")
    k.add_argument("--tolerance", type=float, default=5.0,
                   help="largest agreeing error, percent (default 5)")
    k.add_argument("--family", help=FAMILY_HELP)
    k.add_argument("--output", help="also write the table to FILE")
    v = sub.add_parser("verify", help="tp-verify-schedule on one pass")
    v.add_argument("dir")
    v.add_argument("results")
    v.add_argument("--tp-opt", default="tp-opt")
    v.add_argument("--family", help=FAMILY_HELP)
    c = sub.add_parser("check", help="check dumped outputs")
    c.add_argument("dir")
    c.add_argument("results")
    c.add_argument("--family", help=FAMILY_HELP)
    c.add_argument("--skip-below-model", action="store_true",
                   help="leave out the sweep variants spaced below the model "
                   "(wrong values there are findings, not failures)")
    r = sub.add_parser("report", help="table and card file")
    r.add_argument("dir")
    r.add_argument("results")
    r.add_argument("--card", help="the card's name (required for device "
                   "results; modelled results name their card)")
    r.add_argument("--date")
    r.add_argument("--driver", default="unknown")
    r.add_argument("--predicted", metavar="MODELLED_RESULTS",
                   help="the timing model's results of the same benchmarks "
                   "(ubench.py timing): each row gets the prediction and the "
                   "error measured / predicted - 1")
    r.add_argument("--table")
    r.add_argument("--card-json")
    args = ap.parse_args()
    if args.cmd == "sim":
        return run_sim(args)
    if args.cmd == "timing":
        return run_timing(args)
    if args.cmd == "all":
        return run_all(args)
    if args.cmd == "compare":
        return run_compare(args)
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
