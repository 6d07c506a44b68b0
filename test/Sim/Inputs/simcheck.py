#!/usr/bin/env python3
# ===- simcheck.py - Inputs and CPU references for the tp-sim tests -------===#
#
# gen-<test> PREFIX        writes the input buffers PREFIX.<name>
# check-<test> ... OUT     recomputes the kernel's result on the CPU from the
#                          inputs (following the PTX ISA semantics, written
#                          independently of lib/Sim) and compares it with
#                          OUT, the buffer tp-sim wrote; exit 1 on mismatch.
#
# Inputs are deterministic (seeded).  Halves are integer-valued where the
# test wants exact results.
# ===----------------------------------------------------------------------===#
import random
import struct
import sys
from fractions import Fraction


def f16(x):
    return struct.unpack('<e', struct.pack('<e', x))[0]


def h2b(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


def b2h(b):
    return struct.unpack('<e', struct.pack('<H', b))[0]


def rd(path):
    with open(path, 'rb') as f:
        return f.read()


def wr(path, data):
    with open(path, 'wb') as f:
        f.write(data)


def halves(data):
    return [b2h(v) for v in struct.unpack('<%dH' % (len(data) // 2), data)]


def floats(data):
    return list(struct.unpack('<%df' % (len(data) // 4), data))


def u32s(data):
    return list(struct.unpack('<%dI' % (len(data) // 4), data))


def fail(msg):
    print('simcheck: FAIL: ' + msg)
    sys.exit(1)


# --------------------------------------------------------------------- mma
def gen_mma(prefix):
    r = random.Random(6)
    a = [float(r.randint(-8, 8)) for _ in range(256)]     # 16x16
    bt = [float(r.randint(-8, 8)) for _ in range(128)]    # 8 (n) x 16 (k)
    c = [float(r.randint(-16, 16)) for _ in range(128)]   # 16x8
    wr(prefix + '.a', struct.pack('<256e', *a))
    wr(prefix + '.bt', struct.pack('<128e', *bt))
    wr(prefix + '.c32', struct.pack('<128f', *c))
    wr(prefix + '.c16', struct.pack('<128e', *c))


def check_mma(kind, prefix, out):
    a = halves(rd(prefix + '.a'))
    bt = halves(rd(prefix + '.bt'))
    c = floats(rd(prefix + '.c32'))
    kmax = 8 if kind == 'k8' else 16
    got = halves(rd(out)) if kind == 'f16' else floats(rd(out))
    bad = 0
    for i in range(16):
        for n in range(8):
            want = c[i * 8 + n] + sum(a[i * 16 + k] * bt[n * 16 + k]
                                      for k in range(kmax))
            if kind == 'f16':
                want = f16(want)
            if got[i * 8 + n] != want:
                bad += 1
                if bad < 5:
                    print('D[%d][%d] = %r, expected %r' %
                          (i, n, got[i * 8 + n], want))
    if bad:
        fail('%d of 128 elements differ' % bad)
    print('simcheck: mma %s: 128 elements exact' % kind)


# -------------------------------------------------------------------- ldsm
# Row address given by lane L: row ((L * 5) % 32) of a 32-row table with
# 64-byte rows, second 16-byte half for odd lanes (see ldsm.ptx).
def ldsm_row(lane):
    return ((lane * 5) % 32) * 64 + (16 if lane & 1 else 0)


def gen_ldsm(prefix):
    r = random.Random(9)
    wr(prefix + '.smem', bytes(r.getrandbits(8) for _ in range(2048)))


def check_ldsm(prefix, out):
    smem = rd(prefix + '.smem')
    got = u32s(rd(out))

    def elem(mat, row, col):  # matrix mat: rows from lanes 8*mat..8*mat+7
        addr = ldsm_row(8 * mat + row) + 2 * col
        return smem[addr] | smem[addr + 1] << 8

    variants = [(1, False), (2, False), (4, False), (1, True), (2, True),
                (4, True)]
    bad = 0
    for v, (count, trans) in enumerate(variants):
        for i in range(count):
            for lane in range(32):
                # PTX ldmatrix: thread lane holds row lane/4, columns
                # 2*(lane%4) and +1 of each matrix (of its transpose with
                # .trans).
                r, c = lane // 4, 2 * (lane % 4)
                if trans:
                    lo, hi = elem(i, c, r), elem(i, c + 1, r)
                else:
                    lo, hi = elem(i, r, c), elem(i, r, c + 1)
                want = lo | hi << 16
                g = got[(v * 4 + i) * 32 + lane]
                if g != want:
                    bad += 1
                    if bad < 5:
                        print('x%d%s reg %d lane %d: 0x%08x, expected 0x%08x'
                              % (count, '.trans' if trans else '', i, lane,
                                 g, want))
    if bad:
        fail('%d ldmatrix registers differ' % bad)
    print('simcheck: ldmatrix: all registers exact')


# ---------------------------------------------------------------- cp.async
def gen_bytes(prefix, n=4096, seed=12):
    r = random.Random(seed)
    wr(prefix + '.src', bytes(r.getrandbits(8) for _ in range(n)))


def check_copy(prefix, out):
    src = rd(prefix + '.src')
    got = rd(out)
    if got != src[:len(got)]:
        first = next(i for i in range(len(got)) if got[i] != src[i])
        fail('byte %d is 0x%02x, expected 0x%02x' % (first, got[first],
                                                      src[first]))
    print('simcheck: %d bytes copied exactly' % len(got))


def check_zfill(prefix, out):
    """cp-async-zfill.ptx: each copy keeps its first src-size bytes and
    zero-fills the rest (PTX ISA, cp.async); ignore-src copies zeros."""
    src = rd(prefix + '.src')
    want = bytearray(3584)
    for t in range(64):
        for base, size, keep in ((0, 16, (t & 15) + (t >> 4 & 1)),
                                 (1024, 16, 0 if t % 2 else 16),
                                 (2048, 8, (t & 7) + (t >> 3 & 1)),
                                 (2560, 16, (7 * t & 15) + (7 * t >> 4 & 1))):
            at = base + size * t
            want[at:at + keep] = src[at:at + keep]
    got = rd(out)
    if got != bytes(want):
        first = next(i for i in range(len(got)) if got[i] != want[i])
        fail('byte %d is 0x%02x, expected 0x%02x' % (first, got[first],
                                                      want[first]))
    print('simcheck: %d bytes, zero-filled beyond each source size' %
          len(got))


# ----------------------------------------------------------- int and float
def to_u32(x):
    return x & 0xffffffff


def to_s32(x):
    x &= 0xffffffff
    return x - (1 << 32) if x & 0x80000000 else x


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def bits_f32(b):
    return struct.unpack('<f', struct.pack('<I', b))[0]


def round_fraction(q, mant_bits, emin, emax):
    """Rounds the exact rational q to a binary float with mant_bits
    significand bits (incl. the implicit one), RNE; returns a Python float
    (inf on overflow)."""
    if q == 0:
        return 0.0
    sign = -1 if q < 0 else 1
    q = abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - mant_bits + 1)
    n = q / ulp
    fl = n.numerator // n.denominator
    rem = n - fl
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1):
        fl += 1
    v = fl * ulp
    if v >= Fraction(2) ** (emax + 1):
        return sign * float('inf')
    return sign * float(v)


def rf32(q, zero=0.0):
    """q rounded to binary32; \p zero is the IEEE-signed zero to return
    when q is exactly 0 (Fractions have no -0)."""
    return round_fraction(q, 24, -126, 127) if q != 0 else zero


def rf16(q, zero=0.0):
    return round_fraction(q, 11, -14, 15) if q != 0 else zero


def gen_intfloat(prefix):
    r = random.Random(5)
    ints = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 31, 32, 33]
    while len(ints) < 64:
        ints.append(r.getrandbits(32) if r.random() < 0.6
                    else r.randint(-40, 40) & 0xffffffff)
    fl = [1.0, -0.0, 3.5, 1e-30, -2.75, 65504.0, 1e10, 0.1]
    while len(fl) < 64:
        fl.append(r.uniform(-100, 100) * 2.0 ** r.randint(-20, 20))
    fl = [bits_f32(f32_bits(x)) for x in fl]
    wr(prefix + '.ints', struct.pack('<64I', *ints))
    wr(prefix + '.floats', struct.pack('<64f', *fl))


def intfloat_expected(a, b, c, fa, fb, fc):
    """The NOUT results of thread t (see intfloat.ptx), as u32."""
    sa, sb = to_s32(a), to_s32(b)
    res = []
    res.append(to_u32(a + b))                       # add
    res.append(to_u32(a - b))                       # sub
    res.append(to_u32(a * b))                       # mul.lo
    res.append(to_u32((a * b) >> 32))               # mul.hi.u32
    res.append(to_u32((sa * sb) >> 32))             # mul.hi.s32
    w = (sa * sb) & 0xffffffffffffffff              # mul.wide.s32
    res += [w & 0xffffffff, w >> 32]
    res.append(to_u32(a * b + c))                   # mad.lo
    res.append(to_u32(a << (b & 31)))               # shl (b masked by us)
    res.append(to_u32(a >> (b & 31)))               # shr.u32
    res.append(to_u32(sa >> (b & 31)))              # shr.s32
    res.append(to_u32(a & b))
    res.append(to_u32(a | b))
    res.append(to_u32(a ^ b))
    res.append(to_u32(~a))
    res.append(to_u32(min(sa, sb)))                 # min.s32
    res.append(to_u32(max(a, b)))                   # max.u32
    res.append(to_u32(abs(sa)))                     # abs.s32
    res.append(1 if sa < sb else 0)                 # setp.lt.s32 + selp
    res.append(1 if a < b else 0)                   # setp.lt.u32
    res.append(1 if a == c else 0)                  # setp.eq
    # 64-bit: x = a:b (hi:lo), y = c:a
    x = (a << 32) | b
    y = (c << 32) | a
    s = (x + y) & 0xffffffffffffffff
    res += [s & 0xffffffff, s >> 32]
    d = (x - y) & 0xffffffffffffffff
    res += [d & 0xffffffff, d >> 32]
    res.append(1 if x < y else 0)                   # setp.lt.u64
    sx = x - (1 << 64) if x >> 63 else x
    sy = y - (1 << 64) if y >> 63 else y
    res.append(1 if sx <= sy else 0)                # setp.le.s64
    # prmt.b32 a, b, 0x5140 (bytes b1 a1 b0 a0... per selector)
    bytes8 = [(a >> (8 * i)) & 0xff for i in range(4)] + \
             [(b >> (8 * i)) & 0xff for i in range(4)]
    sel = 0x5140
    res.append(sum(bytes8[(sel >> (4 * i)) & 7] << (8 * i) for i in range(4)))
    # float
    Fa, Fb, Fc = Fraction(fa), Fraction(fb), Fraction(fc)
    res.append(f32_bits(rf32(Fa + Fb, fa + fb)))             # add.rn.f32
    res.append(f32_bits(rf32(Fa * Fb, fa * fb)))             # mul.rn.f32
    res.append(f32_bits(rf32(Fa * Fb + Fc, fa * fb + fc)))        # fma.rn.f32
    res.append(f32_bits(rf32(Fa - Fb, fa - fb)))             # sub
    res.append(1 if fa < fb else 0)                 # setp.lt.f32
    res.append(1 if fa >= fc else 0)                # setp.ge.f32
    res.append(f32_bits(rf32(Fraction(sa))))        # cvt.rn.f32.s32
    res.append(f32_bits(rf32(Fraction(a))))         # cvt.rn.f32.u32
    ha = h2b(fa) if abs(fa) < 65520 else (0x7c00 | (0x8000 if fa < 0 else 0))
    res.append(ha)                                  # cvt.rn.f16.f32
    res.append(f32_bits(b2h(a & 0xffff)) if (a & 0x7c00) != 0x7c00
               else None)                           # cvt.f32.f16 (finite)
    # f16x2: ha2 = {lo: f16(fa), hi: f16(fb)} = cvt.rn.f16x2.f32 (fb, fa)
    hb = h2b(fb) if abs(fb) < 65520 else (0x7c00 | (0x8000 if fb < 0 else 0))
    res.append(ha | hb << 16)
    # add.f16x2 (ha2 + hc2) and fma.rn.f16x2 (ha2 * hc2 + ha2), hc2 from c
    hc_lo, hc_hi = c & 0xffff, c >> 16
    ok = all((h & 0x7c00) != 0x7c00 for h in (ha, hb, hc_lo, hc_hi))
    if ok:
        A = [Fraction(b2h(ha)), Fraction(b2h(hb))]
        C = [Fraction(b2h(hc_lo)), Fraction(b2h(hc_hi))]
        fa2 = [b2h(ha), b2h(hb)]
        fc2 = [b2h(hc_lo), b2h(hc_hi)]
        add = [rf16(A[i] + C[i], fa2[i] + fc2[i]) for i in range(2)]
        fma = [rf16(A[i] * C[i] + A[i], fa2[i] * fc2[i] + fa2[i])
               for i in range(2)]
        res.append(h2b(add[0]) | h2b(add[1]) << 16 if all(
            abs(x) != float('inf') for x in add) else None)
        res.append(h2b(fma[0]) | h2b(fma[1]) << 16 if all(
            abs(x) != float('inf') for x in fma) else None)
    else:
        res += [None, None]
    # min/max/selp.f32 (no NaN inputs; -0 orders below +0)
    def fmin(x, y):
        if x == y:
            return x if str(x).startswith('-') else y
        return min(x, y)

    def fmax(x, y):
        if x == y:
            return y if str(x).startswith('-') else x
        return max(x, y)
    res.append(f32_bits(fmin(fa, fb)))
    res.append(f32_bits(fmax(fa, fc)))
    res.append(f32_bits(fb if fa < fb else fc))     # selp.f32 on setp.lt

    def cvt(x, mode, lo, hi):
        import math
        q = Fraction(x)
        if mode == 'rni':
            n = round(q)                            # Python: half to even
        elif mode == 'rzi':
            n = math.trunc(q)
        else:
            n = math.floor(q)
        return max(lo, min(hi, n)) & 0xffffffff
    res.append(cvt(fa, 'rni', -2**31, 2**31 - 1))
    res.append(cvt(fb, 'rzi', 0, 2**32 - 1))
    res.append(cvt(fc, 'rmi', -2**31, 2**31 - 1))
    return res


def check_intfloat(prefix, out, skip=()):
    ints = u32s(rd(prefix + '.ints'))
    fl = floats(rd(prefix + '.floats'))
    got = u32s(rd(out))
    nout = len(intfloat_expected(1, 2, 3, 1.0, 2.0, 3.0))
    if len(got) != 64 * nout:
        fail('output has %d words, expected %d' % (len(got), 64 * nout))
    bad = 0
    checked = 0
    for t in range(64):
        a, b, c = ints[t], ints[(t + 1) % 64], ints[(t + 7) % 64]
        fa, fb, fc = fl[t], fl[(t + 3) % 64], fl[(t + 5) % 64]
        want = intfloat_expected(a, b, c, fa, fb, fc)
        for i, w in enumerate(want):
            if w is None or i in skip:
                continue
            checked += 1
            g = got[t * nout + i]
            if g != w:
                bad += 1
                if bad < 8:
                    print('thread %d result %d: 0x%08x, expected 0x%08x '
                          '(a=0x%x b=0x%x c=0x%x fa=%r fb=%r fc=%r)' %
                          (t, i, g, w, a, b, c, fa, fb, fc))
    if bad:
        fail('%d of %d results differ' % (bad, checked))
    print('simcheck: int/float: %d results exact' % checked)


# ------------------------------------------------------------------ stores
# stores.ptx: every thread t of one warp stores V + t * 0x01030507 (low
# byte, low half) and zeros (RZ) of 1, 2, 4 and 8 bytes, each size S at
# stride 2S (the bytes between keep their fill), to global memory and to
# shared memory (filled with 0x5a first, copied out whole); thread 0 adds
# four sub-word parameter loads of W.
STORES_V = 0x89abcdef
STORES_W = 0xf08e8101


def stores_expected(fill):
    b = bytearray([fill]) * 1152
    for t in range(32):
        v = (STORES_V + t * 0x01030507) & 0xffffffff
        b[2 * t] = v & 0xff
        struct.pack_into('<H', b, 64 + 4 * t, v & 0xffff)
        b[192 + 2 * t] = 0
        struct.pack_into('<H', b, 256 + 4 * t, 0)
        struct.pack_into('<I', b, 384 + 8 * t, 0)
        struct.pack_into('<Q', b, 640 + 16 * t, 0)
    return bytes(b)


def check_stores(gout, sout):
    g, sh = rd(gout), rd(sout)
    w = STORES_W
    want_g = stores_expected(0xff) + struct.pack(
        '<4I', (w >> 8) & 0xff, to_u32(((w >> 24) ^ 0x80) - 0x80),
        w >> 16, to_u32(((w >> 16) ^ 0x8000) - 0x8000))
    want_s = stores_expected(0x5a) + b'\x5a' * (2048 - 1152)
    for name, got, want in (('global', g, want_g), ('shared', sh, want_s)):
        if len(got) != len(want):
            fail('%s: %d bytes, expected %d' % (name, len(got), len(want)))
        if got != want:
            i = next(i for i in range(len(got)) if got[i] != want[i])
            fail('%s byte %d is 0x%02x, expected 0x%02x' %
                 (name, i, got[i], want[i]))
    print('simcheck: stores: %d global and %d shared bytes exact' %
          (len(g), len(sh)))


# -------------------------------------------------------------- mma_tile
# ../shared/reference/ptx/mma_tile_sm*.ptx with one block: A 16x16 halves
# row-major, B 16 (k) x 8 (n) halves row-major, C 16x8 f32; D = A B + C,
# then D[g][2t] += D[g+8][2t] for rows g < 8 (the kernel's FADD).
def gen_tile(prefix):
    r = random.Random(15)
    wr(prefix + '.a', struct.pack('<256e', *[float(r.randint(-8, 8))
                                             for _ in range(256)]))
    wr(prefix + '.b', struct.pack('<128e', *[float(r.randint(-8, 8))
                                             for _ in range(128)]))
    wr(prefix + '.c', struct.pack('<128f', *[float(r.randint(-16, 16))
                                             for _ in range(128)]))


def check_tile(prefix, out):
    a, b = halves(rd(prefix + '.a')), halves(rd(prefix + '.b'))
    c, got = floats(rd(prefix + '.c')), floats(rd(out))
    d = [c[i * 8 + n] + sum(a[i * 16 + k] * b[k * 8 + n] for k in range(16))
         for i in range(16) for n in range(8)]
    for i in range(8):
        for n in range(0, 8, 2):
            d[i * 8 + n] += d[(i + 8) * 8 + n]
    bad = [i for i in range(128) if got[i] != d[i]]
    if bad:
        fail('%d of 128 elements differ, first C[%d][%d] = %r, expected %r'
             % (len(bad), bad[0] // 8, bad[0] % 8, got[bad[0]], d[bad[0]]))
    print('simcheck: mma_tile: 128 elements exact')


def main(argv):
    cmd = argv[1]
    if cmd == 'gen-mma':
        gen_mma(argv[2])
    elif cmd == 'check-mma':
        check_mma(argv[2], argv[3], argv[4])
    elif cmd == 'gen-ldsm':
        gen_ldsm(argv[2])
    elif cmd == 'check-ldsm':
        check_ldsm(argv[2], argv[3])
    elif cmd == 'gen-bytes':
        gen_bytes(argv[2])
    elif cmd == 'check-copy':
        check_copy(argv[2], argv[3])
    elif cmd == 'check-zfill':
        check_zfill(argv[2], argv[3])
    elif cmd == 'gen-intfloat':
        gen_intfloat(argv[2])
    elif cmd == 'check-intfloat':
        # Optional "skip=I,J": results I and J are not compared.
        skip = ()
        if len(argv) > 4 and argv[4].startswith('skip='):
            skip = tuple(int(x) for x in argv[4][5:].split(','))
        check_intfloat(argv[2], argv[3], skip)
    elif cmd == 'check-stores':
        check_stores(argv[2], argv[3])
    elif cmd == 'gen-tile':
        gen_tile(argv[2])
    elif cmd == 'check-tile':
        check_tile(argv[2], argv[3])
    else:
        fail('unknown command ' + cmd)


if __name__ == '__main__':
    main(sys.argv)
