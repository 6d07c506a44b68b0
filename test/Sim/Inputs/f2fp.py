#!/usr/bin/env python3
"""Inputs and the exact check of f2fp-pack.ptx: 64 f32 values as 32 pairs
(a, b); each thread converts its pair with cvt.rn.f16x2.f32 and
cvt.rn.bf16x2.f32 (a into the upper half, PTX ISA "cvt").  The expected
halves: the exact value rounded to nearest, ties to even (computed here
with rationals), an infinity beyond the type's largest finite value, and a
quiet NaN keeping the NaN's top payload bits (tp-sim's rule, UNVERIFIED
on hardware).

  f2fp.py gen OUT          writes OUT.in (256 bytes)
  f2fp.py check OUT OUT.d  checks the 256 bytes of results
"""
import struct
import sys
from fractions import Fraction


def bits(f):
    return struct.unpack('<I', struct.pack('<f', f))[0]


VALUES = [
    # ties: 1 + 2^-11 (f16 tie, rounds to even 1.0), 1 + 3 2^-11 (to 1+2^-9)
    1.0 + 2.0**-11, 1.0 + 3 * 2.0**-11,
    # bf16 ties: 1 + 2^-8 (to 1.0), 1 + 3 2^-8 (to 1 + 2^-6)
    1.0 + 2.0**-8, 1.0 + 3 * 2.0**-8,
    # just above ties
    1.0 + 2.0**-11 + 2.0**-20, 1.0 + 2.0**-8 + 2.0**-20,
    # f16 overflow: 65519.99 rounds to 65504, 65520 to inf; large to inf
    65519.0, 65520.0, -70000.0, 3.0e38,
    # bf16 overflow: the largest f32 rounds to inf in bf16
    3.4028234663852886e38, -3.4028234663852886e38,
    # f16 subnormals and underflow, bf16 subnormals
    2.0**-24, 2.0**-25, 3 * 2.0**-26, 2.0**-140,
    -0.0, 0.0, float('inf'), float('-inf'),
    1.0 / 3, -2.0 / 3, 0.1, 1234.5678,
    5.0e-8, -6.1e-5, 2.0**-126, 2.0**-133,
]
NANS = [0x7fc00000, 0xffc12345, 0x7f800001, 0x7fa00000]


def inputs():
    words = [bits(v) for v in VALUES] + NANS
    while len(words) < 64:
        words.append(bits(float(len(words)) * 1.5 - 40.0))
    return words


def round_to(word, mant, emin, emax):
    """Rounds the f32 `word` to a binary format with `mant` stored bits,
    minimum normal exponent `emin`, maximum `emax`; returns (sign, value)
    with value a Fraction, 'inf' or 'nan'."""
    s = word >> 31
    e = (word >> 23) & 0xff
    m = word & 0x7fffff
    if e == 0xff:
        return s, ('nan' if m else 'inf')
    x = Fraction(m, 1 << 23) * Fraction(2) ** (-126) if e == 0 else \
        (1 + Fraction(m, 1 << 23)) * Fraction(2) ** (e - 127)
    if x == 0:
        return s, Fraction(0)
    ex = 0
    while Fraction(2) ** (ex + 1) <= x:
        ex += 1
    while Fraction(2) ** ex > x:
        ex -= 1
    q = Fraction(2) ** (max(ex, emin) - mant)
    n = x / q
    fl = n.numerator // n.denominator
    rem = n - fl
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2):
        fl += 1
    r = fl * q
    largest = (2 - Fraction(2) ** -mant) * Fraction(2) ** emax
    if r > largest:
        return s, 'inf'
    return s, r


def encode(word, fmt):
    mant, emin, emax, ebits = (10, -14, 15, 5) if fmt == 'f16' else \
        (7, -126, 127, 8)
    s, v = round_to(word, mant, emin, emax)
    top = s << 15
    inf = ((1 << ebits) - 1) << mant
    if v == 'inf':
        return top | inf
    if v == 'nan':
        payload = (word & 0x7fffff) >> (23 - mant)
        return top | inf | payload | (1 << (mant - 1))
    if v == 0:
        return top
    ex = 0
    while Fraction(2) ** (ex + 1) <= v:
        ex += 1
    while Fraction(2) ** ex > v:
        ex -= 1
    if ex < emin:  # subnormal
        frac = v / (Fraction(2) ** (emin - mant))
        return top | int(frac)
    frac = (v / Fraction(2) ** ex - 1) * (1 << mant)
    return top | ((ex - emin + 1) << mant) | int(frac)


def main():
    if sys.argv[1] == 'gen':
        with open(sys.argv[2] + '.in', 'wb') as f:
            f.write(struct.pack('<64I', *inputs()))
        return 0
    words = inputs()
    out = struct.unpack('<64I', open(sys.argv[3], 'rb').read())
    bad = 0
    for t in range(32):
        a, b = words[2 * t], words[2 * t + 1]
        for k, fmt in enumerate(('f16', 'bf16')):
            want = encode(a, fmt) << 16 | encode(b, fmt)
            got = out[2 * t + k]
            if got != want:
                bad += 1
                print(f'thread {t} {fmt}: a={a:#010x} b={b:#010x} '
                      f'expected {want:#010x}, found {got:#010x}')
    print(f'{64 - bad} of 64 packs exact')
    return 1 if bad else 0


sys.exit(main())
