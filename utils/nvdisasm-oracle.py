#!/usr/bin/env python3
"""NVIDIA's disassembler (nvdisasm 11.8) as the oracle for tp's words.

nvdisasm 11.8 cannot read a CUDA 13 cubin, but it reads raw words
(`nvdisasm -b SM86 raw.bin`).  This script feeds it words and compares its
verdicts and its text with tp's (docs/nvdisasm.md):

  cubins FILE...    every word of every .text section of each cubin (tp-llc's
                    or ptxas's): nvdisasm accepts it, and prints what
                    `tp-mc --disassemble` prints (--per-cubin: a line each)
  words FILE...     the same for files of 32-hex-digit words, one a line
                    (what `tp-mc --assemble --show-encoding` wrote), all of
                    --target
  control           every form of a target (tp-form-samples) with every
                    value of bits 105..109: nvdisasm accepts exactly those
                    sass::isDefinedControl accepts
  fuzz              random instances of every form (tp-form-samples):
                    nvdisasm recognises each, and tp-mc parses its text back
                    to the same instruction bits

Some spellings changed between CUDA 11.8 and 13; tp prints 13's.  ALIASES
is the one table of them (each with its reason; docs/nvdisasm.md lists
it); nothing else is normalised (--no-aliases: not even those).  Words
nvdisasm 11.8 does not know (it prints nothing for opcodes newer than it:
VIADD, VIMNMX, ...) are counted and reported, never passed as equal.
The fuzz's forms that still differ for a known cause are KNOWN_FUZZ
(counted and listed apart, never passed as equal).
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

# The one alias table: (regex on tp's text, replacement giving nvdisasm
# 11.8's text, the targets it applies to (None: all), why).  Every entry is
# a spelling that changed between CUDA 11.8 and 13 (tp prints 13's, as
# ptxas 13's tools and NVIDIA's rows in ../shared/reference do).
ALIASES = [
    (r"\bF2FP\.PACK_AB\b", "F2FP.F16.F32.PACK_AB", None,
     "CUDA 13 prints F2FP.PACK_AB, 11.8 names the source type"),
    (r"\bF2FP\.BF16\.PACK_AB\b", "F2FP.BF16.F32.PACK_AB", None,
     "CUDA 13 prints F2FP.BF16.PACK_AB, 11.8 names the source type"),
    (r"desc\[UR\d+\]", "", None,
     "11.8 does not print a memory operand's descriptor, desc[URx]"),
    (r"^((?:@!?P\d )?(?:LD|ST)\.\S* (?:R\d+, )?)\[(UR\d+)", r"\1[RZ.U32+\2",
     None, "a generic LD/ST whose address is a UR alone: CUDA 13 leaves the "
     "RZ base out (docs/sass-format.md), 11.8 writes RZ.U32+URx"),
    (r"^((?:@!?P\d )?)WARPSYNC 0x0$", r"\1WARPSYNC.ALL", {"sm_90"},
     "WARPSYNC with an empty immediate mask: 11.8's SM90 tables spell it "
     "WARPSYNC.ALL (its SM80/SM86/SM89 tables print WARPSYNC 0x0, as tp)"),
]
USE_ALIASES = True

# Forms of the fuzz that still differ from nvdisasm for a cause not fixed
# yet: (regex on the form's name, targets (None: all), why).  Their words
# are counted and listed apart; they never pass as equal.
KNOWN_FUZZ = [
    (r"U?IMAD(_.*)?", None,
     "IMAD family: nvdisasm prints IMAD.MOV.U32 for IMAD.U32/.SHL/.IADD "
     "with A = RZ (tp: only some), no carry-out predicate on the non-wide "
     "_P forms (the bits are not IMAD's), no ~ on B of the .X forms, and "
     "knows no IMAD.HI/IMAD.WIDE/UIMAD.WIDE with an immediate C (the "
     "unverified forms of td/UnverifiedForms.txt)"),
    (r"(LDG|STG|LD|ST|LDS|STS|LDL|STL|ATOM|ATOMG|ATOMS|RED|REDG|LDGSTS|QSPC"
     r"|ARRIVES|CCTL|LDSM|MATCH)(_.*)?", None,
     "memory: an address with no register base prints unsigned (tp: "
     "signed), the _RZA_/_RZB_ forms print the same text for two encodings, "
     "[UR+off] prints as [RZ.Xn+UR+off] on shared memory, desc[URx] on a "
     "form with no register base prints as [RZ.64+...], and modifier "
     "combinations nvdisasm calls ???0 or no instruction (.EF with .U32 "
     "addresses, .CONSTANT/.PRIVATE order)"),
    (r"H(ADD2|MUL2|FMA2|SETP2|SET2|MNMX2)(_.*)?", None,
     "FP16x2: swizzles and |x| nvdisasm does not print (HFMA2.MMA's B, the "
     "F32 and BF16_V2 forms), HADD2.F32's second immediate, HMUL2's "
     ".BF16_V2, the _RELU_P forms with PT"),
    (r"(F2F|F2I|I2F|I2FP|F2FP|FRND|I2I)(_.*)?", None,
     "conversions: .H1 on a source that is not F16, F2F.F16.F16 and F2F "
     "BF16 from F64 are no instruction, a 32-bit immediate printed as a "
     "double or unsigned"),
    (r"(BRA|BRX|BRXU|BSSY|BSYNC|CALL|RET|WARPSYNC|EXIT|BAR|BPT|JMP|JMX|"
     r"KILL|NANOSLEEP|YIELD|BREAK|DEPBAR|B2R)(_.*)?", None,
     "control flow: a negative branch target prints as a signed number "
     "(tp: 64-bit unsigned), BSSY/CALL.REL targets wrap at 32 bits, "
     "WARPSYNC.EXCLUSIVE and an EXIT/B2R predicate of PT are not printed, "
     "BAR.ARV.DEFER_BLOCKING is no instruction, an empty DEPBAR set {} is "
     "not printed"),
    (r"U?(LEA|IADD3|LOP3_LUT|PLOP3|ISETP|SHF|IABS|POPC|FLO|VOTE|VOTEU|MOV_M|"
     r"R2UR)(_.*)?", None,
     "an optional predicate or register output of PT/RZ (LEA, IADD3, "
     "LOP3.LUT, VOTE, R2UR) or MOV's lane mask: nvdisasm leaves it out and "
     "the text parses as the sibling form, and IADD3/LOP3/LEA.HI with an "
     "immediate, c[] or UR in C are no instruction (td/UnverifiedForms.txt)"),
    (r"S2UR|S2R|UBLK.*|UTMA.*|UCGABAR.*|USETMAXREG.*|SYNCS.*", None,
     "uniform-datapath instructions take a uniform guard (@UPx) in "
     "nvdisasm; tp prints and parses @Px"),
    (r"GMMA_.*_P", {"sm_90"},
     "GMMA's scale-d predicate of UPT is not printed by nvdisasm"),
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


def alias(text, target=None):
    text = re.sub(r"\s+", " ", text).strip().rstrip(";").strip()
    for pattern, repl, targets, _ in ALIASES if USE_ALIASES else []:
        if targets is None or target is None or target in targets:
            text = re.sub(pattern, repl, text)
    return text


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
                unrecognized.update(bad)
                m = REJECT.search(r.stderr)
                if m:
                    i = int(m.group(4), 16) // 16
                    rejected.append((i, m.group(1), int(m.group(2), 16),
                                     m.group(3)))
                    bad.append(i)
                if not bad:
                    sys.exit("nvdisasm failed: " + r.stderr.strip())
                for i in bad:
                    words[i] = NOP
        # A word nvdisasm lists no line for is one it does not know
        # (opcodes newer than 11.8): "", as a blank line.
        texts = [""] * len(words)
        for line in r.stdout.splitlines():
            m = LISTING.match(line)
            if m:
                texts[int(m.group(1), 16) // 16] = m.group(2)
        for i, _, _, _ in rejected:
            texts[i] = None
        for i in unrecognized:
            texts[i] = None
        return texts, rejected, unrecognized


def tp_listing(tp_mc, cubin, mcpu=None):
    """tp-mc's listing of \p cubin: [(section, [(addr, text, word)])]."""
    r = subprocess.run([tp_mc, "--disassemble", "--show-encoding", cubin]
                       + (["-mcpu=" + mcpu] if mcpu else []),
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
    def __init__(self, max_failures=40):
        self.words = self.rejected = self.differ = 0
        self.unknown = collections.Counter()
        self.failures = []
        self.max_failures = max_failures

    def fail(self, msg):
        if self.max_failures < 0 or len(self.failures) < self.max_failures:
            self.failures.append(msg)

    def line(self, what):
        unknown = sum(self.unknown.values())
        return (f"{what}: {self.words} words, {self.rejected} rejected by "
                f"nvdisasm, {self.differ} printed differently, {unknown} not "
                f"known to nvdisasm 11.8"
                + (" (" + ", ".join(f"{k} {v}" for k, v in
                                    sorted(self.unknown.items())) + ")"
                   if unknown else ""))

    def finish(self, what):
        for f in self.failures:
            print(f)
        print(self.line(what))
        return 1 if self.rejected or self.differ else 0


# Mnemonics whose operand is an absolute code address computed from the
# word's own address (sass::getPCRelativeTarget).
PC_RELATIVE = {"BRA", "BSSY", "CALL", "RET"}


def mnemonic(text):
    words = text.split()
    return (words[1] if words[0].startswith("@") else words[0]).split(".")[0]


def compare(a, words, title, per_file):
    """\p words: [(file, where, text, word, base)], tp-mc's text of each
    word; all in one nvdisasm run, word i at byte 16 * i, so a PC-relative
    target nvdisasm prints is \p base (where the word's section starts in
    the run) more than tp-mc's.  Prints the differences, a line per file
    with \p per_file, and a line of totals."""
    rep = Report(a.max_failures)
    files = collections.OrderedDict((w[0], Report()) for w in words)
    rep.words = len(words)
    for w in words:
        files[w[0]].words += 1
    texts, rejected, unrec = a.nv.run(w[3] for w in words)
    where = lambda i: f"{words[i][0]}: {words[i][1]}: {words[i][2]}"
    for i, opclass, value, table in rejected:
        rep.rejected += 1
        files[words[i][0]].rejected += 1
        rep.fail(f"{where(i)}: undefined value {value:#x} for {opclass}'s {table}")
    for i in sorted(unrec):
        rep.rejected += 1
        files[words[i][0]].rejected += 1
        rep.fail(f"{where(i)}: nvdisasm: unrecognized operation")
    for i, (f, _, text, _, base) in enumerate(words):
        nv = texts[i]
        if nv is None:
            continue
        if nv == "":
            rep.unknown[mnemonic(text)] += 1
            files[f].unknown[mnemonic(text)] += 1
            continue
        if base and mnemonic(nv) in PC_RELATIVE and ".ABS" not in nv:
            nv = re.sub(r"0x([0-9a-f]+)(\s*)$",
                        lambda m: f"{int(m.group(1), 16) - base:#x}{m.group(2)}", nv)
        if alias(text, a.target) != alias(nv, a.target):
            rep.differ += 1
            files[f].differ += 1
            rep.fail(f"{where(i)}\n  nvdisasm: {nv}")
    if per_file:
        for f, r in files.items():
            print(r.line(os.path.basename(f)))
    return rep.finish(title)


def cmd_cubins(a):
    """All sections of all cubins in one nvdisasm run: section k starts at
    byte offset S_k of the raw file, so a PC-relative target nvdisasm prints
    is S_k more than tp's."""
    words = []  # (cubin, where, text, word, S)
    for cubin in a.files:
        for section, lines in tp_listing(a.tp_mc, cubin, a.mcpu):
            base = 16 * len(words)
            words += [(cubin, f"{section} {addr:#06x}", text, w, base)
                      for addr, text, w in lines]
    return compare(a, words, f"{a.target}: {len(a.files)} cubins",
                   a.per_cubin)


def cmd_words(a):
    """Files of words (32 hex digits a line, what --show-encoding writes
    after `encoding: 0x`), one stream at address 0: tp-mc prints them at the
    same addresses nvdisasm does, so no PC-relative target moves."""
    hexes = []  # (file, line number, word)
    for path in a.files:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                m = re.search(r"(?:0x)?([0-9a-fA-F]{32})\s*$", line)
                if m:
                    hexes.append((path, n, m.group(1).lower()))
    with tempfile.TemporaryDirectory() as tmp:
        lst = os.path.join(tmp, "words.txt")
        with open(lst, "w") as f:
            f.write("".join(f"/*{16 * i:04x}*/ {h}\n"
                            for i, (_, _, h) in enumerate(hexes)))
        r = subprocess.run([a.tp_mc, "--disassemble", "--no-warn",
                            "-mcpu=" + (a.mcpu or a.target), lst],
                           capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"tp-mc failed: {r.stderr.strip()}")
    texts = [re.sub(r"^/\*[0-9a-f]+\*/\s*", "", l).strip()
             for l in r.stdout.splitlines()
             if l.strip() and not l.startswith(("//", "."))]
    if len(texts) != len(hexes):
        sys.exit(f"tp-mc printed {len(texts)} lines for {len(hexes)} words")
    words = [(f, f"line {n}", t, int(h, 16), 0)
             for (f, n, h), t in zip(hexes, texts)]
    return compare(a, words, f"{a.target}: {len(a.files)} word files",
                   a.per_cubin)


def form_samples(a, control, per_form=1, seed=None):
    r = subprocess.run([a.form_samples, "-mcpu=" + a.target,
                        f"--per-form={per_form}", f"--control={control}"]
                       + ([f"--seed={seed}"] if seed is not None else []),
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


def known_fuzz(name, target):
    """The KNOWN_FUZZ reason for form \p name on \p target, or None."""
    for pattern, targets, why in KNOWN_FUZZ:
        if (targets is None or target in targets) and re.fullmatch(pattern,
                                                                    name):
            return why
    return None


def cmd_fuzz(a):
    samples = form_samples(a, 18, per_form=a.per_form, seed=a.seed)
    texts, rejected, unrec = a.nv.run(w for _, w, _ in samples)
    rep = Report(a.max_failures)
    rep.words = len(samples)
    known = collections.Counter()  # (reason, what) -> words
    known_forms = collections.defaultdict(set)
    by_form = collections.defaultdict(list)
    for i in sorted(unrec):
        by_form[samples[i][0]].append(samples[i][2])
    for i, _, value, _ in rejected:
        by_form[samples[i][0]].append(f"{samples[i][2]} (control {value})")
    for name, txts in sorted(by_form.items()):
        why = known_fuzz(name, a.target)
        if why:
            known[why, "rejected"] += len(txts)
            known_forms[why].add(name)
            continue
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
            if alias(text, a.target) == alias(texts[i], a.target):
                continue
        # An alias that drops information (desc[URx]): text equality only.
        elif (alias(text, a.target) == alias(texts[i], a.target) and
              text != alias(text, a.target)):
            continue
        why = known_fuzz(name, a.target)
        if why:
            known[why, "differ"] += 1
            known_forms[why].add(name)
            continue
        rep.differ += 1
        why = f"parsed back to {b:032x}" if isinstance(b, int) else b
        rep.fail(f"{name}: tp: {text}\n  nvdisasm: {texts[i]}\n  {why}")
    for why in sorted(known_forms):
        print(f"known: {known[why, 'rejected']} rejected, "
              f"{known[why, 'differ']} differ in {len(known_forms[why])} "
              f"forms: {why}" + (": " + " ".join(sorted(known_forms[why]))
                                 if a.verbose else ""))
    return rep.finish(f"{a.target} fuzz, {a.per_form} per form, "
                      f"{sum(known.values())} in KNOWN_FUZZ forms")


def main():
    global USE_ALIASES
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--nvdisasm", required=True)
    p.add_argument("--tp-mc", required=True)
    p.add_argument("--form-samples")
    p.add_argument("--target", default="sm_86", choices=sorted(TARGETS))
    p.add_argument("--no-aliases", action="store_true",
                   help="compare without ALIASES (to show what each covers)")
    p.add_argument("--max-failures", type=int, default=40,
                   help="differences printed (-1: all)")
    p.add_argument("-v", "--verbose", action="store_true")
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("cubins", "words"):
        c = sub.add_parser(name)
        c.add_argument("--per-cubin", action="store_true",
                       help="a line of counts per file")
        c.add_argument("--mcpu", help="tp-mc's -mcpu (e.g. sm_90a); its "
                       "nvdisasm tables are --target's")
        c.add_argument("files", nargs="+")
    c = sub.add_parser("control")
    c.add_argument("--all", action="store_true",
                   help="every undefined value of every form")
    c.add_argument("--stride", type=int, default=24,
                   help="check an undefined value on every N-th form")
    c = sub.add_parser("fuzz")
    c.add_argument("--per-form", type=int, default=8)
    c.add_argument("--seed", type=lambda x: int(x, 0), default=None,
                   help="tp-form-samples' seed (default: its own)")
    a = p.parse_args()
    USE_ALIASES = not a.no_aliases
    a.nv = Nvdisasm(a.nvdisasm, a.target)
    if a.cmd == "words":
        return cmd_words(a)
    if a.cmd == "cubins":
        if a.mcpu:
            return cmd_cubins(a)
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
