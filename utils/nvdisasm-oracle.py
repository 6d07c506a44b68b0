#!/usr/bin/env python3
"""NVIDIA's disassembler (nvdisasm 11.8) as the oracle for tp's words.

nvdisasm 11.8 cannot read a CUDA 13 cubin, but it reads raw words
(`nvdisasm -b SM86 raw.bin`).  This script feeds it words and compares its
verdicts and its text with tp's (docs/nvdisasm.md):

  cubins FILE...    every word of every .text section of each cubin (tp-llc's
                    or ptxas's): nvdisasm accepts it, and prints what
                    `tp-mc --disassemble` prints
  control           every form of a target (tp-form-samples) with every
                    value of bits 105..109: nvdisasm accepts exactly those
                    sass::isDefinedControl accepts
  fuzz              random instances of every form (tp-form-samples):
                    nvdisasm recognises each, and tp-mc parses its text back
                    to the same instruction bits

Two spellings changed between CUDA 11.8 and 13; tp prints 13's.  ALIASES
lists them (with docs/nvdisasm.md); nothing else is normalised.  Words
nvdisasm 11.8 does not know (it prints nothing for opcodes newer than it:
VIADD, VIMNMX, ...) are counted and reported, never passed as equal.
Exits 1 on any rejection or difference.
"""

import argparse
import collections
import os
import re
import struct
import subprocess
import sys
import tempfile

# (regex on tp's text, replacement giving nvdisasm 11.8's text, why).
ALIASES = [
    (r"\bF2FP\.PACK_AB\b", "F2FP.F16.F32.PACK_AB",
     "CUDA 13 prints F2FP.PACK_AB, 11.8 names the source type"),
    (r"\bF2FP\.BF16\.PACK_AB\b", "F2FP.BF16.F32.PACK_AB",
     "CUDA 13 prints F2FP.BF16.PACK_AB, 11.8 names the source type"),
    (r"desc\[UR\d+\]", "",
     "11.8 does not print a memory operand's descriptor, desc[URx]"),
]

TARGETS = {"sm_80": "SM80", "sm_86": "SM86", "sm_89": "SM89", "sm_90": "SM90"}
# bits 105..109 of a word: stall | bit 109 << 4.
CONTROL_SHIFT = 105
REJECT = re.compile(r"Opclass '([^']*)', undefined value (0x[0-9a-f]+) for "
                    r"table '([^']*)' at address (0x[0-9a-f]+)")
UNRECOGNIZED = re.compile(r"Unrecognized operation .* at address (0x[0-9a-f]+)")
LISTING = re.compile(r"\s*/\*([0-9a-f]+)\*/\s*(.*?)\s*;?\s*$")
# The pad NOP, as ptxas writes it: always defined and always known.
NOP = 0x000fc000000000000000000000007918


def with_control(word, value):
    return (word & ~(0x1f << CONTROL_SHIFT)) | (value << CONTROL_SHIFT)


def alias(text):
    for pattern, repl, _ in ALIASES:
        text = re.sub(pattern, repl, text)
    return re.sub(r"\s+", " ", text).strip()


class Nvdisasm:
    def __init__(self, path, arch):
        self.path, self.arch = path, TARGETS[arch]
        self.runs = 0

    def run(self, words):
        """nvdisasm over \p words: (texts by index or None, rejections,
        unrecognised indices).  A rejection stops nvdisasm, so each one is
        replaced by the pad NOP and nvdisasm runs again; unrecognised words
        are all reported at once and replaced the same way."""
        words = list(words)
        rejected, unrecognized = [], set()
        with tempfile.TemporaryDirectory() as tmp:
            raw = os.path.join(tmp, "raw.bin")
            while True:
                with open(raw, "wb") as f:
                    for w in words:
                        f.write(struct.pack("<QQ", w & (2**64 - 1), w >> 64))
                r = subprocess.run([self.path, "-b", self.arch, raw],
                                   capture_output=True, text=True)
                self.runs += 1
                if r.returncode == 0:
                    break
                bad = [int(a, 16) // 16 for a in UNRECOGNIZED.findall(r.stderr)]
                m = REJECT.search(r.stderr)
                if m:
                    i = int(m.group(4), 16) // 16
                    rejected.append((i, m.group(1), int(m.group(2), 16),
                                     m.group(3)))
                    bad.append(i)
                else:
                    unrecognized.update(bad)
                if not bad:
                    sys.exit("nvdisasm failed: " + r.stderr.strip())
                for i in bad:
                    words[i] = NOP
        texts = [None] * len(words)
        for line in r.stdout.splitlines():
            m = LISTING.match(line)
            if m:
                texts[int(m.group(1), 16) // 16] = m.group(2)
        for i, _, _, _ in rejected:
            texts[i] = None
        for i in unrecognized:
            texts[i] = None
        return texts, rejected, unrecognized


def tp_listing(tp_mc, cubin):
    """tp-mc's listing of \p cubin: [(section, [(addr, text, word)])]."""
    r = subprocess.run([tp_mc, "--disassemble", "--show-encoding", cubin],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"tp-mc failed on {cubin}: {r.stderr.strip()}")
    sections = []
    for line in r.stdout.splitlines():
        if line.startswith("// .text"):
            sections.append((line[3:], []))
            continue
        m = re.match(r"/\*([0-9a-f]+)\*/ (.*) // encoding: 0x([0-9a-f]{32})$",
                     line)
        if m and sections:
            sections[-1][1].append((int(m.group(1), 16), m.group(2),
                                    int(m.group(3), 16)))
    return sections


class Report:
    def __init__(self):
        self.words = self.rejected = self.differ = 0
        self.unknown = collections.Counter()
        self.failures = []

    def fail(self, msg):
        if len(self.failures) < 40:
            self.failures.append(msg)

    def finish(self, what):
        for f in self.failures:
            print(f)
        unknown = sum(self.unknown.values())
        print(f"{what}: {self.words} words, {self.rejected} rejected by "
              f"nvdisasm, {self.differ} printed differently, {unknown} not "
              f"known to nvdisasm 11.8"
              + (" (" + ", ".join(f"{k} {v}" for k, v in
                                  sorted(self.unknown.items())) + ")"
                 if unknown else ""))
        return 1 if self.rejected or self.differ else 0


# Mnemonics whose operand is an absolute code address computed from the
# word's own address (sass::getPCRelativeTarget).
PC_RELATIVE = {"BRA", "BSSY", "CALL", "RET"}


def mnemonic(text):
    words = text.split()
    return (words[1] if words[0].startswith("@") else words[0]).split(".")[0]


def cmd_cubins(a):
    """All sections of all cubins in one nvdisasm run: section k starts at
    byte offset S_k of the raw file, so a PC-relative target nvdisasm prints
    is S_k more than tp's."""
    rep = Report()
    words = []  # (cubin, section, addr, text, word, S)
    for cubin in a.files:
        for section, lines in tp_listing(a.tp_mc, cubin):
            base = 16 * len(words)
            words += [(cubin, section, addr, text, w, base)
                      for addr, text, w in lines]
    rep.words = len(words)
    texts, rejected, unrec = a.nv.run(w[4] for w in words)
    where = lambda i: f"{words[i][0]}: {words[i][1]} {words[i][2]:#06x}: {words[i][3]}"
    for i, opclass, value, table in rejected:
        rep.rejected += 1
        rep.fail(f"{where(i)}: undefined value {value:#x} for {opclass}'s {table}")
    for i in sorted(unrec):
        rep.rejected += 1
        rep.fail(f"{where(i)}: nvdisasm: unrecognized operation")
    for i, (cubin, section, addr, text, _, base) in enumerate(words):
        nv = texts[i]
        if nv is None:
            continue
        if nv == "":
            rep.unknown[mnemonic(text)] += 1
            continue
        if base and mnemonic(nv) in PC_RELATIVE:
            nv = re.sub(r"0x([0-9a-f]+)(\s*)$",
                        lambda m: f"{int(m.group(1), 16) - base:#x}{m.group(2)}", nv)
        if alias(text) != alias(nv):
            rep.differ += 1
            rep.fail(f"{where(i)}\n  nvdisasm: {nv}")
    return rep.finish(f"{a.target}: {len(a.files)} cubins")


def form_samples(a, control, per_form=1):
    r = subprocess.run([a.form_samples, "-mcpu=" + a.target,
                        f"--per-form={per_form}", f"--control={control}"],
                       capture_output=True, text=True, check=True)
    return [(n, int(h, 16), t) for n, h, t in
            (line.split("\t") for line in r.stdout.splitlines())]


def defined_values(a):
    """The values of bits 105..109 tp accepts: tp-mc's verdict on a NOP
    with each."""
    out = set()
    for v in range(32):
        stall, yld = v & 15, not (v >> 4)
        src = f"NOP {{stall={stall}{' yield' if yld else ''}}}\n"
        r = subprocess.run([a.tp_mc, "--assemble", "-mcpu=" + a.target],
                           input=src, capture_output=True, text=True)
        if r.returncode == 0:
            out.add(v)
    return out


def cmd_control(a):
    """Every form with every value tp calls defined: nvdisasm accepts all
    (one run).  The values tp calls undefined: each form at one of them
    (round robin), or every form at every one with --all."""
    defined = defined_values(a)
    undefined = sorted(set(range(32)) - defined)
    base = form_samples(a, 0, per_form=4)
    # One instance of each form that nvdisasm recognises.
    texts, _, unrec = a.nv.run(w for _, w, _ in base)
    pick = {}
    for i, (name, w, _) in enumerate(base):
        if i not in unrec and texts[i] and name not in pick:
            pick[name] = w
    names = sorted({n for n, _, _ in base})
    unchecked = [n for n in names if n not in pick]
    words = [(n, v, with_control(pick[n], v)) for n in sorted(pick)
             for v in sorted(defined)]
    texts, rejected, unrec = a.nv.run(w for _, _, w in words)
    bad = 0
    for i, opclass, value, table in rejected:
        bad += 1
        print(f"{words[i][0]}: value {words[i][1]} is defined for tp, "
              f"nvdisasm rejects it ({opclass}, {table})")
    for i in unrec:
        bad += 1
        print(f"{words[i][0]}: value {words[i][1]}: unrecognized")
    # A rejection costs a run: by default every stride-th form, at the
    # undefined values in turn; --all: every form at every one.
    forms = sorted(pick)
    checks = ([(n, v) for n in forms for v in undefined] if a.all else
              [(n, undefined[k % len(undefined)])
               for k, n in enumerate(forms[::a.stride])])
    tables = collections.Counter()
    for n, v in checks:
        _, rej, _ = a.nv.run([with_control(pick[n], v)])
        if not rej:
            bad += 1
            print(f"{n}: value {v} is undefined for tp, nvdisasm accepts it")
        else:
            tables[rej[0][3]] += 1
    print(f"{a.target}: {len(pick)} forms x {len(defined)} defined values "
          f"accepted; {len(checks)} undefined (form, value) pairs checked "
          f"({', '.join(f'{t} {c}' for t, c in sorted(tables.items()))}); "
          f"{len(unchecked)} forms with no instance nvdisasm recognises; "
          f"{bad} disagreements; {a.nv.runs} nvdisasm runs")
    if unchecked and a.verbose:
        print("  no recognised instance: " + " ".join(unchecked))
    return 1 if bad else 0


def cmd_fuzz(a):
    samples = form_samples(a, 18, per_form=a.per_form)
    texts, rejected, unrec = a.nv.run(w for _, w, _ in samples)
    rep = Report()
    rep.words = len(samples)
    by_form = collections.defaultdict(list)
    for i in sorted(unrec):
        by_form[samples[i][0]].append(samples[i][2])
    for i, _, value, _ in rejected:
        by_form[samples[i][0]].append(f"{samples[i][2]} (control {value})")
    for name, txts in sorted(by_form.items()):
        rep.rejected += len(txts)
        rep.fail(f"{name}: nvdisasm does not recognise {len(txts)} of "
                 f"{a.per_form}, e.g. {txts[0]}")
    # Parse nvdisasm's text back with tp-mc; compare bits 0..104 and the
    # reuse flags (nvdisasm prints no other control field).
    keep = [i for i, t in enumerate(texts) if t]
    for i, t in enumerate(texts):
        if t == "":
            rep.unknown[samples[i][0]] += 1
    # nvdisasm printed sample i at address 16 * i; tp-mc assembles it at
    # 16 * k (its index in keep): move a PC-relative target by the
    # difference.
    for k, i in enumerate(keep):
        if mnemonic(texts[i]) in PC_RELATIVE and i != k:
            texts[i] = re.sub(
                r"0x([0-9a-f]+)(\s*)$",
                lambda m: f"{int(m.group(1), 16) - 16 * (i - k):#x}{m.group(2)}",
                texts[i])
    src = "".join(f"/*{16 * k:04x}*/ {texts[i]}\n" for k, i in enumerate(keep))
    r = subprocess.run([a.tp_mc, "--assemble", "--show-encoding",
                        "-mcpu=" + a.target, "--no-warn"],
                       input=src, capture_output=True, text=True)
    back = {}
    if r.returncode:
        # Parse line by line to locate each failure.
        for k, i in enumerate(keep):
            r1 = subprocess.run([a.tp_mc, "--assemble", "--show-encoding",
                                 "-mcpu=" + a.target, "--no-warn"],
                                input=f"/*{16 * k:04x}*/ {texts[i]}\n",
                                capture_output=True, text=True)
            m = re.search(r"encoding: 0x([0-9a-f]{32})", r1.stdout)
            back[i] = int(m.group(1), 16) if m else r1.stderr.strip()
    else:
        encs = re.findall(r"encoding: 0x([0-9a-f]{32})", r.stdout)
        for k, i in enumerate(keep):
            back[i] = int(encs[k], 16)
    mask = (2**128 - 1) & ~(((1 << 17) - 1) << 105)  # bits 105..121
    for i in keep:
        name, word, text = samples[i]
        b = back[i]
        if isinstance(b, int) and (b & mask) == (word & mask):
            continue
        # An alias that drops information (desc[URx]): text equality only.
        if alias(text) == alias(texts[i]) and text != alias(text):
            continue
        rep.differ += 1
        why = f"parsed back to {b:032x}" if isinstance(b, int) else b
        rep.fail(f"{name}: tp: {text}\n  nvdisasm: {texts[i]}\n  {why}")
    return rep.finish(f"{a.target} fuzz, {a.per_form} per form")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nvdisasm", required=True)
    p.add_argument("--tp-mc", required=True)
    p.add_argument("--form-samples")
    p.add_argument("--target", default="sm_86", choices=sorted(TARGETS))
    p.add_argument("-v", "--verbose", action="store_true")
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cubins")
    c.add_argument("files", nargs="+")
    c = sub.add_parser("control")
    c.add_argument("--all", action="store_true",
                   help="every undefined value of every form")
    c.add_argument("--stride", type=int, default=24,
                   help="check an undefined value on every N-th form")
    c = sub.add_parser("fuzz")
    c.add_argument("--per-form", type=int, default=8)
    a = p.parse_args()
    a.nv = Nvdisasm(a.nvdisasm, a.target)
    if a.cmd == "cubins":
        # Each cubin names its target; group by it.
        status = 0
        for arch in TARGETS:
            files = [f for f in a.files if cubin_arch(f) == arch]
            if files:
                a.nv = Nvdisasm(a.nvdisasm, arch)
                status |= cmd_cubins(argparse.Namespace(
                    **{**vars(a), "files": files, "target": arch}))
        other = [f for f in a.files if cubin_arch(f) not in TARGETS]
        if other:
            print(f"not sm_80..sm_90 (nvdisasm 11.8 has no tables): "
                  f"{len(other)} cubins skipped")
        return status
    return {"control": cmd_control, "fuzz": cmd_fuzz}[a.cmd](a)


def cubin_arch(path):
    """sm_NN from a cubin's e_flags (ptxas 13's v8 layout: SM in bits 8..15)."""
    with open(path, "rb") as f:
        head = f.read(64)
    if head[:4] != b"\x7fELF":
        sys.exit(f"{path}: not an ELF file")
    flags = struct.unpack_from("<I", head, 0x30)[0]
    return f"sm_{(flags >> 8) & 0xff}"


if __name__ == "__main__":
    sys.exit(main())
