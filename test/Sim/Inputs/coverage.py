#!/usr/bin/env python3
"""Inputs and checks for test/Sim/coverage-ops.test: each check recomputes
from the PTX's meaning what the kernel of test/MC/Inputs/<name>.ptx wrote.

usage: coverage.py gen-in FILE N SEED        N 32-bit words (seeded)
       coverage.py gen-small FILE N SEED     N words in 0..999
       coverage.py gen-am FILE N SEED        N words, odd in lanes 16..31
       coverage.py check-sad OUT IN K
       coverage.py check-barrier OUT K THREADS
       coverage.py check-redux OUT IN
       coverage.py check-calls OUT IN K
       coverage.py check-activemask OUT IN
       coverage.py check-warpmask OUT IN MASK
       coverage.py check-mufu OUT IN
"""
import math
import random
import struct
import sys

M32 = 0xffffffff


def words(path, fmt='I'):
    data = open(path, 'rb').read()
    return list(struct.unpack('<%d%s' % (len(data) // 4, fmt), data))


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def s16(v):
    v &= 0xffff
    return v - (1 << 16) if v >> 15 else v


def report(name, bad, total):
    print('%s: %d of %d wrong' % (name, bad, total))
    return 1 if bad else 0


def gen_in(path, n, seed):
    rng = random.Random(seed)
    vals = []
    for i in range(n):
        # Small, large, negative and edge values.
        k = rng.randrange(5)
        vals.append([rng.randrange(1 << 32), rng.randrange(1000),
                     (-rng.randrange(1000)) & M32, 0x80000000 + rng.randrange(3),
                     M32 - rng.randrange(3)][k])
    open(path, 'wb').write(struct.pack('<%dI' % n, *vals))


def check_sad(out, inp, k):
    o, a = words(out), words(inp)
    bad = 0
    for t in range(32):
        x, y, z = a[t], a[t + 32], a[t + 64]
        u16 = lambda v: v & 0xffff
        rd6, rd7 = x, s32(y) & (2**64 - 1)
        want = [
            (abs(x - y) + z) & M32,
            (abs(s32(x) - s32(y)) + z) & M32,
            (abs(s32(x) - s32(y)) + 5) & M32,
            (abs(x - 0xfffffffc) + z) & M32,
            (abs(x - k) + z) & M32,
            (abs(s32(k) - s32(y)) + z) & M32,
            (abs(u16(x) - u16(y)) + u16(z)) & 0xffff,
            (abs(s16(x) - s16(y)) + u16(z)) & 0xffff,
        ]
        sad64u = (abs(rd6 - rd7) + rd6) & (2**64 - 1)
        sad64s = (abs(x - s32(y)) + rd7) & (2**64 - 1)
        want += [sad64u & M32, sad64u >> 32, sad64s & M32, sad64s >> 32]
        got = o[16 * t:16 * t + 12]
        if got != want:
            bad += 1
            print('thread %d: got %s, want %s' % (t, got, want))
    return report('sad', bad, 32)


def check_barrier(out, k, threads):
    o = words(out)
    bad = 0
    for t in range(threads):
        want = [min(k, threads), int(k >= threads), int(k > 0),
                (7 * (t + 64) + 3) if t < 64 else 0]
        got = o[4 * t:4 * t + 4]
        if got != want:
            bad += 1
            print('thread %d: got %s, want %s' % (t, got, want))
    return report('barrier', bad, threads)


def check_redux(out, inp):
    o, v = words(out), words(inp)[:32]
    sv = [s32(x) for x in v]
    andv, orv, xorv = M32, 0, 0
    for x in v:
        andv &= x
        orv |= x
        xorv ^= x
    want = [sum(v) & M32, sum(v) & M32, min(v), min(sv) & M32, max(v),
            max(sv) & M32, andv, orv, xorv]
    bad = 0
    for t in range(32):
        got = o[12 * t:12 * t + 9]
        if got != want:
            bad += 1
            print('thread %d: got %s, want %s' % (t, got, want))
    return report('redux', bad, 32)


def check_calls(out, inp, k):
    o, v = words(out), words(inp)
    bad = 0
    for t in range(64):
        x = s32(v[t])
        assert x >= 0, 'inputs must be non-negative (C %)'
        f = [x + k, x - k, x * k][x % 3]
        want = (2 * x + k + f) & M32
        if o[t] != want:
            bad += 1
            print('thread %d: got %#x, want %#x' % (t, o[t], want))
    return report('calls', bad, 64)


def check_activemask(out, inp):
    o, v = words(out), words(inp)
    bad = 0
    for w in range(len(o) // 32):
        lanes = v[32 * w:32 * w + 32]
        odd = [l for l in range(32) if lanes[l] & 1]
        m = sum(1 << l for l in odd)
        for l in range(32):
            x = lanes[l]
            if x & 1:
                down = lanes[l + 1] if l + 1 < 32 else x
                want = lanes[31] + down * 3 + m
            else:
                want = lanes[l ^ 2] - bin(M32 & ~m).count('1')
            want &= M32
            if o[32 * w + l] != want:
                bad += 1
                print('thread %d: got %#x, want %#x' % (32 * w + l,
                                                        o[32 * w + l], want))
    return report('activemask', bad, len(o))


def check_warpmask(out, inp, mask):
    o, v = words(out), words(inp)
    bad = 0
    for w in range(len(o) // 32):
        lanes = v[32 * w:32 * w + 32]
        act = [l for l in range(32) if (mask >> l) & 1]
        r = list(lanes)
        for l in act:
            r[l] = (lanes[l] + lanes[3]) & M32
        tot = sum(r[l] for l in act) & M32
        for l in act:
            r[l] = (r[l] + tot) & M32
        r2 = list(r)
        for l in act:
            match = sum(1 << j for j in act if (r[j] & 3) == (r[l] & 3))
            r2[l] = (r[l] + match) & M32
        for l in range(32):
            if o[32 * w + l] != r2[l]:
                bad += 1
                print('thread %d: got %#x, want %#x' % (32 * w + l,
                                                        o[32 * w + l], r2[l]))
    return report('warpmask', bad, len(o))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    num = lambda s: int(s, 0)
    if cmd == 'gen-in':
        gen_in(args[0], num(args[1]), num(args[2]))
        return 0
    if cmd == 'gen-am':
        # activemask.ptx's shuffles are defined (every source lane runs
        # them) when the odd values are lanes 16..31 of each warp.
        rng = random.Random(num(args[2]))
        n = num(args[1])
        open(args[0], 'wb').write(struct.pack('<%dI' % n, *[
            2 * rng.randrange(500) + (1 if i % 32 >= 16 else 0)
            for i in range(n)]))
        return 0
    if cmd == 'gen-small':
        rng = random.Random(num(args[2]))
        n = num(args[1])
        open(args[0], 'wb').write(struct.pack(
            '<%dI' % n, *[rng.randrange(1000) for _ in range(n)]))
        return 0
    if cmd == 'check-sad':
        return check_sad(args[0], args[1], num(args[2]))
    if cmd == 'check-barrier':
        return check_barrier(args[0], num(args[1]), num(args[2]))
    if cmd == 'check-redux':
        return check_redux(args[0], args[1])
    if cmd == 'check-calls':
        return check_calls(args[0], args[1], num(args[2]))
    if cmd == 'check-activemask':
        return check_activemask(args[0], args[1])
    if cmd == 'check-warpmask':
        return check_warpmask(args[0], args[1], num(args[2]))
    sys.exit('unknown command ' + cmd)


if __name__ == '__main__':
    sys.exit(main())
