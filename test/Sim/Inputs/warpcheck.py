#!/usr/bin/env python3
# ===- warpcheck.py - Inputs and references for tp-sim's warp tests -------===#
#
# gen-<test> PREFIX          writes the input buffers PREFIX.<name>
# check-<test> PREFIX OUT .. recomputes the kernel's results from the inputs
#                            following the PTX ISA's definitions (written
#                            independently of lib/Sim) and compares them
#                            with OUT, the buffer tp-sim wrote; exit 1 on a
#                            mismatch.
# ===----------------------------------------------------------------------===#
import random
import struct
import sys
from fractions import Fraction


def rd(path):
    with open(path, 'rb') as f:
        return f.read()


def wr(path, data):
    with open(path, 'wb') as f:
        f.write(data)


def u32s(data):
    return list(struct.unpack('<%dI' % (len(data) // 4), data))


def fail(msg):
    print('warpcheck: FAIL: ' + msg)
    sys.exit(1)


def compare(got, want, what):
    if len(got) != len(want):
        fail('%s: %d values, expected %d' % (what, len(got), len(want)))
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    for i, g, w in bad[:10]:
        print('  %s[%d]: got 0x%08x, expected 0x%08x' % (what, i, g, w))
    if bad:
        fail('%s: %d of %d values differ' % (what, len(bad), len(want)))
    print('warpcheck: %s: %d values match' % (what, len(want)))


# ------------------------------------------------------------------- shfl
def shfl(mode, lane, b, c, vals):
    """PTX ISA 8.x, shfl.sync: the value and the predicate of one lane."""
    bval, cval, seg = b & 31, c & 31, (c >> 8) & 31
    max_lane = (lane & seg) | (cval & ~seg)
    min_lane = lane & seg
    if mode == 'up':
        j = lane - bval
        pval = j >= max_lane
    elif mode == 'down':
        j = lane + bval
        pval = j <= max_lane
    elif mode == 'bfly':
        j = lane ^ bval
        pval = j <= max_lane
    else:
        j = min_lane | (bval & ~seg)
        pval = j <= max_lane
    if not pval:
        j = lane
    return vals[j], pval


def gen_shfl(prefix):
    r = random.Random(19)
    wr(prefix + '.in', struct.pack('<32I', *[r.getrandbits(32)
                                             for _ in range(32)]))


def check_shfl(prefix, out, sel, creg):
    vals = u32s(rd(prefix + '.in'))
    sel, creg = int(sel, 0), int(creg, 0)
    want = []
    for lane in range(32):
        ops = [('idx', 5, 0x1f), ('up', 3, 0), ('down', 7, 0x1f),
               ('bfly', 9, 0x1f), ('idx', sel, 0x1f),
               ('idx', vals[lane], creg), ('down', 3, 0x1c07),
               ('up', 2, 0x1808), ('bfly', 6, 0x1c03), ('idx', 13, 0x1807),
               ('down', sel, creg)]
        preds = 0
        for i, (mode, b, c) in enumerate(ops):
            v, p = shfl(mode, lane, b, c, vals)
            want.append(v)
            preds |= int(p) << i
        want.append(preds)
    compare(u32s(rd(out)), want, 'shfl')


# ------------------------------------------------------------------ local
def check_local(out, n):
    n = int(n, 0)
    want = []
    for t in range(128):
        arr = [(i * t) & 0xffffffff for i in range(64)]
        byte = (t + 0x70) & 0xff
        arr[0] = (arr[0] & ~0xff00) | (byte << 8)
        sext = byte - 256 if byte >= 128 else byte
        want += [arr[n], arr[0], arr[2], arr[3], sext & 0xffffffff]
    compare(u32s(rd(out)), want, 'local')


# ------------------------------------------------------------------- bits
def check_bits(out, n, threads):
    n, threads = int(n, 0), int(threads, 0)
    got = u32s(rd(out))
    want = []
    for t in range(threads):
        warp = t // 32
        lanes = range(32 * warp, min(32 * warp + 32, threads))
        active = sum(1 << (u % 32) for u in lanes)
        ballot = sum(1 << (u % 32) for u in lanes if u < n)
        nb = ~ballot & active & 0xffffffff
        if nb:
            pos = nb.bit_length() - 1
            bf, sh = pos, 31 - pos
        else:
            bf = sh = 0xffffffff
        brev = int('{:032b}'.format(nb)[::-1], 2)
        votes = (int(ballot == active) | int(ballot != 0) << 1 |
                 int(ballot in (0, active)) << 2)
        want += [nb, bf, sh, bin(nb).count('1'), brev, votes,
                 0xffffffff - t, active]
    # Threads past the block leave their 32 bytes untouched (0xff).
    want += [0xffffffff] * (len(got) - len(want))
    compare(got, want, 'bits')


# -------------------------------------------------------------- mma bf16
def bf16_value(r):
    """A bfloat16 with 8 significant bits and a small exponent, as bits."""
    v = (-1) ** r.randint(0, 1) * (128 + r.randint(0, 127)) * \
        2.0 ** (r.randint(-6, 6) - 7)
    return struct.unpack('<I', struct.pack('<f', v))[0] >> 16


def bf16_float(bits):
    return struct.unpack('<f', struct.pack('<I', bits << 16))[0]


def round_f32(x):
    """Fraction -> the nearest binary32 (ties to even), as bits."""
    if x == 0:
        return 0
    sign = 0x80000000 if x < 0 else 0
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    q = a / Fraction(2) ** (e - 23)  # in [2^23, 2^24)
    n = q.numerator // q.denominator
    rem = q - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2):
        n += 1
    v = float(n) * 2.0 ** (e - 23)  # exact: n fits 25 bits
    return sign | struct.unpack('<I', struct.pack('<f', v))[0]


def gen_mma_bf16(prefix):
    r = random.Random(16)
    wr(prefix + '.a', struct.pack('<256H', *[bf16_value(r)
                                             for _ in range(256)]))
    wr(prefix + '.bt', struct.pack('<128H', *[bf16_value(r)
                                              for _ in range(128)]))
    c = [r.randint(-4096, 4096) / 64.0 for _ in range(128)]
    wr(prefix + '.c', struct.pack('<128f', *c))


def check_mma_bf16(k, prefix, out):
    k = int(k)
    a = struct.unpack('<256H', rd(prefix + '.a'))
    bt = struct.unpack('<128H', rd(prefix + '.bt'))
    c = struct.unpack('<128f', rd(prefix + '.c'))
    want = []
    for i in range(16):
        for n in range(8):
            s = Fraction(c[i * 8 + n]) + sum(
                Fraction(bf16_float(a[i * 16 + kk])) *
                Fraction(bf16_float(bt[n * 16 + kk])) for kk in range(k))
            want.append(round_f32(s))
    compare(u32s(rd(out)), want, 'mma bf16 k%d' % k)


# ------------------------------------------------------------- divergence
def check_diverge(out, k, threads):
    k, threads = int(k, 0), int(threads, 0)
    got = u32s(rd(out))
    want = [0xffffffff] * len(got)
    for t in range(threads):
        lane, base = t % 32, 32 * (t // 32)
        lanes = range(base, min(base + 32, threads))
        total = lambda l: sum(range(l + 1))
        code = (1 if lane & 1 else 2) if lane < 10 else \
            3 if lane < 20 else 4 + (lane & 3)
        clamp = min(threads - base, 32) - 1
        shuffled = total(lane + 1 if lane + 1 <= clamp else lane)
        ballot = sum(1 << (u % 32) for u in lanes if u & 1)
        w = 8 * t
        want[w:w + 4] = [total(lane), code, shuffled, ballot]
        if t % 8 != k:
            want[w + 4] = 3 * t
    compare(got, want, 'diverge')


# ------------------------------------------------------------------- uflo
def patch_red(src, dst):
    """The RED of ptxas's aggregated atomic (`@P0 RED.E.ADD...`, sm_90
    REDG; an `.inst` word of opcode 0x98e where it does not decode) becomes
    two stores of the leader: its lane id (R0, from
    S2R SR_LANEID) and the count (R5, from POPC); one trailing NOP goes so
    that the code keeps its 128-byte multiple."""
    lines = open(src).read().split('\n')
    out, done = [], False
    for line in lines:
        w = line.split()
        red = len(w) >= 3 and (
            (w[1] == '.inst' and w[2].endswith('98e')) or
            w[2].startswith(('RED.', 'REDG.')))
        if not done and red:
            ctrl = '{stall=1 wait=0,1}'
            out.append('  @P0 STG.E desc[UR4][R2.64], R0 ' + ctrl)
            out.append('  @P0 STG.E desc[UR4][R2.64+0x4], R5 {stall=5}')
            done = True
            continue
        out.append(line)
    if not done:
        fail('no RED word in ' + src)
    for i in range(len(out) - 1, -1, -1):
        if out[i].strip().startswith('/*') and out[i].split()[1] == 'NOP':
            del out[i]
            break
    wr(dst, '\n'.join(out).encode())


def check_words(out, *words):
    compare(u32s(rd(out)), [int(w, 0) for w in words], 'words')


# ------------------------------------------------------------------ atoms
def check_atoms(out, n, threads):
    n, threads = int(n, 0), int(threads, 0)
    got = u32s(rd(out))
    tickets, words = got[:threads], got[64:75]
    if sorted(t for t in tickets[:n]) != list(range(n)) or \
            any(t != 0xffffffff for t in tickets[n:]):
        fail('tickets %r are not a permutation of 0..%d' % (tickets, n - 1))
    m = 0xffffffff
    s32 = lambda v: v & m
    fold = lambda f, xs, init: __import__('functools').reduce(f, xs, init)
    ts = range(n)
    want = [n, s32(min([5 - t for t in ts] + [0x7fffffff])),
            max([3 * t for t in ts] + [0]),
            fold(lambda a, t: a & ~(1 << t % 32) & m, ts, m),
            fold(lambda a, t: a | 1 << t % 32, ts, 0),
            fold(lambda a, t: a ^ (t * 0x01010101) & m, ts, 0),
            n, 3000 - n]
    compare(words[:8], want, 'atoms folds')
    if words[8] not in [t + 100 for t in ts]:
        fail('exch left 0x%x, no thread wrote it' % words[8])
    if not 1 <= words[9] <= n:
        fail('cas left %d, outside 1..%d' % (words[9], n))
    compare(words[10:11], [sum(ts) & m], 'atoms add')


def check_atoms64(out, n):
    n = int(n, 0)
    count, _, exch, cas = struct.unpack('<IIQQ', rd(out))
    compare([count], [n], 'atoms64 count')
    lo, hi = exch & 0xffffffff, exch >> 32
    if not (lo < n and hi == lo + 1):
        fail('exch.64 left 0x%x, no thread wrote it' % exch)
    if not 1 <= cas <= n:
        fail('cas.64 left %d, outside 1..%d' % (cas, n))
    print('warpcheck: atoms64: exch 0x%x, cas %d' % (exch, cas))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {'gen-shfl': gen_shfl, 'check-shfl': check_shfl,
     'check-local': check_local, 'check-bits': check_bits,
     'gen-mma-bf16': gen_mma_bf16, 'check-mma-bf16': check_mma_bf16,
     'check-diverge': check_diverge, 'patch-red': patch_red,
     'check-words': check_words, 'check-atoms': check_atoms,
     'check-atoms64': check_atoms64}[cmd](*args)


if __name__ == '__main__':
    main()
