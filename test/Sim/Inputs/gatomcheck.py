#!/usr/bin/env python3
"""Checks the output buffer of test/Sim/global-atomics.ptx against the
exact results (the layout and the values are the PTX file's comments):
usage: gatomcheck.py OUT N [--mutate]  (--mutate: change one word first,
to show that the check can fail).  Prints PASS or FAIL and exits 0 / 1."""
import struct
import sys


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    data = bytearray(open(path, 'rb').read())
    if '--mutate' in sys.argv[3:]:
        data[256] ^= 1
    w = lambda off: struct.unpack_from('<I', data, off)[0]
    bad = []
    tickets = sorted(w(4 * t) for t in range(n))
    if tickets != list(range(n)):
        bad.append('tickets are not a permutation of 0..%d' % (n - 1))
    if w(2040) != n:
        bad.append('ticket counter %d, expected %d' % (w(2040), n))
    f = struct.unpack_from('<f', data, 2036)[0]
    if f != float(n):
        bad.append('float counter %r, expected %d' % (f, n))
    M = 0xffffffff
    for t in range(n):
        x = (2 * t + 7) ^ 0xff
        want_a = (x & 0xf0) | 0x100
        want_b = (-3) & M
        olds = [0, t + 7, 2 * t + 7, 2 * t + 7, x, x & 0xf0, 0, 1]
        if w(256 + 8 * t) != want_a or w(260 + 8 * t) != want_b:
            bad.append('thread %d: words 0x%x 0x%x, expected 0x%x 0x%x' %
                       (t, w(256 + 8 * t), w(260 + 8 * t), want_a, want_b))
        if w(768 + 4 * t) != sum(olds) & M:
            bad.append('thread %d: sum of old values 0x%x, expected 0x%x' %
                       (t, w(768 + 4 * t), sum(olds) & M))
    # The CAS chain of warp 0 in ascending lane order.
    if w(2032) != min(n, 32):
        bad.append('CAS word %d, expected %d' % (w(2032), min(n, 32)))
    for t in range(min(n, 32)):
        if w(1024 + 4 * t) != t:
            bad.append('CAS old of lane %d: %d' % (t, w(1024 + 4 * t)))
    print('FAIL: ' + '; '.join(bad[:5]) if bad else 'PASS')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
