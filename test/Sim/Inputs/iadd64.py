#!/usr/bin/env python3
# ===- iadd64.py - Inputs and reference of test/Sim/iadd64-imm.ptx --------===#
#
# gen IN                 writes the 32 u64 inputs (edges of the 32-bit and
#                        64-bit ranges, then a multiplicative sequence)
# check IN OUT [zext]    recomputes kernel negadd's five results from the
#                        PTX (add.s64 / sub.s64 with the constants below:
#                        the sum modulo 2^64) and compares them with OUT,
#                        the buffer tp-sim wrote; with `zext` it expects
#                        the immediates zero-extended instead (what a
#                        simulator that did not sign-extend would give),
#                        so that the test shows it can fail.  Exit 1 on a
#                        mismatch.
# ===----------------------------------------------------------------------===#
import struct
import sys

# negadd's constants, in its store order (PTX source: -16, -1,
# sub 305419896, -2147483648, 2147483647).
CONSTANTS = [-16, -1, -305419896, -2147483648, 2147483647]
MASK = (1 << 64) - 1


def inputs():
    v = [0, 1, 0xf, 0x10, 0x11, 0x7fffffff, 0x80000000, 0x80000001,
         0xffffffff, 0x100000000, 0x100000010, 0x12345678, 0x12345677,
         1 << 63, MASK, (1 << 63) - 1]
    v += [(0x9e3779b97f4a7c15 * (i + 1)) & MASK for i in range(16)]
    return v


def main():
    if sys.argv[1] == 'gen':
        with open(sys.argv[2], 'wb') as f:
            f.write(struct.pack('<32Q', *inputs()))
        return 0
    with open(sys.argv[2], 'rb') as f:
        xs = struct.unpack('<32Q', f.read())
    with open(sys.argv[3], 'rb') as f:
        out = f.read()
    if len(out) != 8 * 32 * len(CONSTANTS):
        print('iadd64: FAIL: %d bytes, expected %d' %
              (len(out), 8 * 32 * len(CONSTANTS)))
        return 1
    got = struct.unpack('<%dQ' % (32 * len(CONSTANTS)), out)
    zext = len(sys.argv) > 4 and sys.argv[4] == 'zext'
    bad = 0
    for j, c in enumerate(CONSTANTS):
        imm = c & 0xffffffff if zext else c
        for t, x in enumerate(xs):
            want = (x + imm) & MASK
            if got[32 * j + t] != want:
                if bad < 5:
                    print('iadd64: FAIL: constant %d, thread %d: %#x + %d = '
                          '%#x, expected %#x' % (c, t, x, imm,
                                                 got[32 * j + t], want))
                bad += 1
    if bad:
        print('iadd64: FAIL: %d of %d values' % (bad, len(got)))
        return 1
    print('iadd64: %d values ok' % len(got))
    return 0


if __name__ == '__main__':
    sys.exit(main())
