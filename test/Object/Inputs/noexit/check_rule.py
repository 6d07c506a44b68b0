#!/usr/bin/env python3
"""check_rule.py DIR/X.cubin...: for each kernel without an EXIT in ptxas
cubins (DIR named after the target: 80/, 90/, 100/, ...), compares the
.debug_frame FDE (fde_dump.py) with the one the exit-point rule predicts
from the code (tp-mc --disassemble's listing; tp-mc on PATH) and prints
"ok"/"BAD" a kernel.  The rule of lib/Object/CubinFrames.cpp, restated
independently: B the first block end, P the instruction before the block
of the last branch that is not the padding BRA-to-self (that block's start
where P is a NOP; NOPFWD=0 drops this), branch targets at or below T0
(default 0x10) not ending the first block; frames as with an EXIT at P.
A reading aid for docs/targets.md "Kernels without an EXIT (session 8)";
no test depends on it."""
import re, subprocess, sys, os
TPMC = "tp-mc"
FDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fde_dump.py")

def listing(cubin):
    out = subprocess.run([TPMC, "--no-warn", "--disassemble", cubin], capture_output=True, text=True).stdout
    K = {}
    cur = None
    for line in out.splitlines():
        m = re.match(r"// \.text\.(\S+)", line)
        if m:
            cur = K.setdefault(m.group(1), [])
            continue
        m = re.match(r"/\*([0-9a-f]+)\*/ (@!?U?P\w+ )?(\S+)(.*)", line)
        if m and cur is not None:
            a = int(m.group(1), 16)
            op = m.group(3)
            t = None
            mt = re.match(r"\s+(0x[0-9a-f]+)$", m.group(4))
            if op.startswith("BRA") and mt:
                t = int(mt.group(1), 16)
            cur.append((a, bool(m.group(2)), op, t, line))
    return K

def fdes(cubin):
    out = subprocess.run(["python3", FDE, cubin], capture_output=True, text=True).stdout
    R = {}
    for line in out.splitlines()[1:]:
        sec, rest = line.split(" ", 1)
        k, ops = rest.split(": ", 1)
        R[(sec, k)] = ops
    return R

def analyse(ins, pro):
    exits = [a for a, p, op, t, l in ins if op.startswith("EXIT")]
    if exits: return None, None, exits, None, None
    ends = [a for a, p, op, t, l in ins if op.startswith("BRA") or op.startswith("EXIT")]
    targets = [t for a, p, op, t, l in ins if t is not None and t != a]
    B = min([ends[0] + 16] + [t for t in targets if t > T0])
    # the last branch that is not the padding BRA-to-self
    Lb = max(a for a, p, op, t, l in ins if t is not None and t != a)
    leaders = set([0] + targets + [a + 16 for a in ends])
    S = max(x for x in leaders if x <= Lb)
    P = S - 16
    if NOPFWD and [op for a, p, op, t, l in ins if a == P] == ["NOP"]:
        P = S
    return B, P, exits, Lb, S

def predict(B, P, pro, addr_order, C, F):
    r = []
    if pro: r.append("adv %#x" % pro)
    if F:
        r.append("adv %#x" % C)
        pop = B > P
        if pop and addr_order:
            return " ".join(r + ["def_cfa 0"])
        r.append("def_cfa %d" % F)
        if pop:
            r += ["adv %#x" % C, "def_cfa 0"]
        else:
            r.append("adv %#x" % P)
        return " ".join(r)
    if addr_order:
        if P < B and P > 0: r.append("adv %#x" % P)
        r += ["adv %#x" % B, "def_cfa 0"]
        if P > B: r.append("adv %#x" % P)
    else:
        r += ["adv %#x" % B, "def_cfa 0", "adv %#x" % P]
    return " ".join(r)

T0 = int(os.environ.get("T0", "16"), 0)
NOPFWD = os.environ.get("NOPFWD", "1") == "1"
for cubin in sys.argv[1:]:
    arch = int(re.search(r"(\d+)/", cubin).group(1))
    pro = 0x10 if arch < 90 else 0
    L = listing(cubin); F = fdes(cubin)
    for k, ins in L.items():
        obs = F[(".debug_frame", k)]
        B, P, exits, Lb, S = analyse(ins, pro)
        if exits: continue
        C = F_ = 0
        for a, p, op, t, l in ins:
            m = re.search(r"(IADD3|VIADD) R1, R1, (-?0x[0-9a-f]+)", l)
            if m and not p:
                C = a + 16
                v = int(m.group(2), 16)
                F_ = -v if v < 0 else (1 << 32) - v
                break
        pred = predict(B, P, pro, arch >= 90, C, F_)
        ok = "ok " if pred == obs else "BAD"
        print("%s sm_%d %-12s B=%#x P=%#x obs: %-40s pred: %s" % (ok, arch, k, B, P, obs, pred if pred != obs else ""))
