#!/usr/bin/env python3
# ===- mutate.py - Flip one thing in one instruction of a cubin -----------===#
#
# mutate.py IN OUT --kernel K --opcode 0x23c [--nth N] ACTION
#   Finds the N-th (default 0) instruction of .text.K whose 12-bit opcode
#   (bits 0..11) is OPCODE and applies ACTION:
#     --stall S        sets the stall count (bits 105..108)
#     --clear-wait     clears the wait mask (bits 116..121)
#     --clear-bit B    clears bit B of the 128-bit word
#     --set-field LO:HI=V  sets bits LO..HI-1 to V
#     --nop            replaces the instruction with a NOP (control kept)
#   --require-bit B  only matches instructions with bit B set
#   --require-field LO:HI=V  only matches instructions with that field value
#   Prints what it changed; fails if nothing matched.
# ===----------------------------------------------------------------------===#
import argparse
import struct
import sys


def sections(data):
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    hdrs = []
    for i in range(shnum):
        name, typ, flags, addr, off, size = struct.unpack_from(
            '<IIQQQQ', data, shoff + i * shentsize)
        hdrs.append((name, off, size))
    stroff = hdrs[shstrndx][1]
    out = {}
    for name, off, size in hdrs:
        end = data.index(b'\0', stroff + name)
        out[data[stroff + name:end].decode()] = (off, size)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument('inp')
    p.add_argument('out')
    p.add_argument('--kernel', required=True)
    p.add_argument('--opcode', required=True, type=lambda s: int(s, 0))
    p.add_argument('--nth', type=int, default=0)
    p.add_argument('--require-field',
                   help='LO:HI=V: only match instructions with this field')
    p.add_argument('--require-bit', type=int,
                   help='only match instructions with this bit set')
    p.add_argument('--stall', type=int)
    p.add_argument('--clear-wait', action='store_true')
    p.add_argument('--clear-bit', type=int)
    p.add_argument('--set-field')
    p.add_argument('--nop', action='store_true')
    a = p.parse_args()
    data = bytearray(open(a.inp, 'rb').read())
    off, size = sections(data)['.text.' + a.kernel]
    seen = 0
    for pc in range(0, size, 16):
        lo, hi = struct.unpack_from('<QQ', data, off + pc)
        if lo & 0xfff != a.opcode:
            continue
        if a.require_bit is not None and not ((lo | hi << 64) >> a.require_bit) & 1:
            continue
        if a.require_field:
            rng, val = a.require_field.split('=')
            b0, b1 = (int(x) for x in rng.split(':'))
            if ((lo | hi << 64) >> b0) & ((1 << (b1 - b0)) - 1) != int(val, 0):
                continue
        if seen < a.nth:
            seen += 1
            continue
        w = lo | hi << 64
        old = w
        if a.stall is not None:
            w = (w & ~(0xf << 105)) | (a.stall << 105)
        if a.clear_wait:
            w &= ~(0x3f << 116)
        if a.clear_bit is not None:
            w &= ~(1 << a.clear_bit)
        if a.set_field:
            rng, val = a.set_field.split('=')
            b0, b1 = (int(x) for x in rng.split(':'))
            mask = ((1 << (b1 - b0)) - 1) << b0
            w = (w & ~mask) | ((int(val, 0) << b0) & mask)
        if a.nop:
            w = (w & (((1 << 23) - 1) << 105)) | 0x7918
        struct.pack_into('<QQ', data, off + pc, w & (2**64 - 1), w >> 64)
        open(a.out, 'wb').write(data)
        print('mutated 0x%04x: %032x -> %032x' % (pc, old, w))
        return 0
    print('mutate.py: no instruction with opcode 0x%x (#%d) in %s' %
          (a.opcode, a.nth, a.kernel))
    return 1


sys.exit(main())
