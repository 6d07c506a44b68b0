#!/usr/bin/env python3
"""Writes the timing model's analytic test kernels as .sass (tp-mc syntax).

  kernels.py ffma N STALL OUT      N dependent FFMA, each {stall=STALL}
  kernels.py hmma N OUT            N independent HMMA.16816.F32, {stall=1}
  kernels.py lds N STRIDE OUT      N LDS.32, lane address = lane * STRIDE
  kernels.py bar N OUT             warp 0 runs N dependent FFMA, then every
                                   warp meets at BAR.SYNC
  kernels.py nowait OUT            S2R's result read without waiting for
                                   its scoreboard
  kernels.py stall S OUT           MOV {stall=S}, then an independent FMUL
  kernels.py war WAIT OUT          STS [R2], R3 (read late, read scoreboard
                                   SB1), then MOV R3 with (WAIT=1) or
                                   without (0) a wait on SB1
  kernels.py fmul N A B OUT        N independent FMUL R10, RA, RB {stall=1}
                                   (B may be written "6.reuse": RB's slot
                                   sets its reuse bit)
  kernels.py sbset STALL OUT       LDS R3 (write scoreboard SB1)
                                   {stall=STALL}, then IADD3 reading R3
                                   with a wait on SB1
"""
import sys

HEAD = """.target sm_86
.cuda_api 130
.tool_note 2 "" "tp" "tp" "" ""

.kernel k
.regs 64
"""
TAIL = """  EXIT {stall=5}
.L_spin:
  BRA .L_spin
.end_kernel
"""


def ffma(n, stall):
    return "".join("  FFMA R2, R2, R3, R4 {stall=%d}\n" % stall
                   for _ in range(n))


def main(argv):
    kind, out = argv[1], argv[-1]
    body = ""
    if kind == "ffma":
        body = ffma(int(argv[2]), int(argv[3]))
    elif kind == "hmma":
        body = "".join("  HMMA.16816.F32 R%d, R8, R12, R%d {stall=1}\n" %
                       (16 + 4 * (i % 12), 16 + 4 * (i % 12))
                       for i in range(int(argv[2])))
    elif kind == "lds":
        n, stride = int(argv[2]), int(argv[3])
        body = ("  S2R R0, SR_LANEID {stall=2 wr=0}\n"
                "  IMAD R2, R0, %d, RZ {stall=5 wait=0}\n" % stride +
                "".join("  LDS R3, [R2] {stall=1 wr=1}\n" for _ in range(n)) +
                "  NOP {stall=1 wait=1}\n")
    elif kind == "bar":
        body = ("  S2R R0, SR_TID.X {stall=2 wr=0}\n"
                "  ISETP.GE.U32.AND P0, PT, R0, 0x20, PT {stall=13 yield wait=0}\n"
                "  @P0 BRA .L_bar {stall=5}\n" + ffma(int(argv[2]), 4) +
                ".L_bar:\n  BAR.SYNC 0x0 {stall=6}\n")
    elif kind == "nowait":
        body = ("  S2R R0, SR_LANEID {stall=1 wr=0}\n"
                "  IMAD R2, R0, 4, RZ {stall=5}\n")
    elif kind == "stall":
        body = ("  MOV R2, 0x1 {stall=%d}\n" % int(argv[2]) +
                "  FMUL R3, R5, R6 {stall=1}\n")
    elif kind == "war":
        wait = " wait=1" if argv[2] == "1" else ""
        body = ("  S2R R0, SR_LANEID {stall=2 wr=0}\n"
                "  IMAD R2, R0, 4, RZ {stall=5 wait=0}\n"
                "  MOV R3, 0x1 {stall=5}\n"
                "  STS [R2], R3 {stall=2 rd=1}\n"
                "  MOV R3, 0x2 {stall=4%s}\n" % wait)
    elif kind == "fmul":
        n, a, b = int(argv[2]), argv[3], argv[4]
        body = "".join("  FMUL R10, R%s, R%s {stall=1}\n" % (a, b)
                       for _ in range(n))
    elif kind == "sbset":
        body = ("  S2R R0, SR_LANEID {stall=2 wr=0}\n"
                "  IMAD R2, R0, 4, RZ {stall=5 wait=0}\n"
                "  LDS R3, [R2] {stall=%d wr=1}\n" % int(argv[2]) +
                "  IADD3 R4, R3, 0x1, RZ {stall=1 wait=1}\n")
    else:
        sys.exit("unknown kernel kind " + kind)
    text = body + TAIL
    count = sum(1 for l in text.splitlines() if l.startswith("  "))
    # ptxas's padding: the code is a multiple of 128 bytes (8 words).
    pad = "".join("  NOP\n" for _ in range(-count % 8))
    with open(out, "w") as f:
        f.write(HEAD + text.replace(".end_kernel", pad + ".end_kernel"))


if __name__ == "__main__":
    main(sys.argv)
