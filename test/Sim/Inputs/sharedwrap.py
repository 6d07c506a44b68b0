#!/usr/bin/env python3
"""Checks test/Sim/shared-wrap.ptx's output: per thread t of one warp,
{LDS of lane t+1's word 3(t+1)+1, ATOMS.ADD's old value 3t+1, LDSM x1's
fragment (word t after the adds: 3t+101), the word LDGSTS copied from
in[t] = 0x1000 + 7t}.  usage: sharedwrap.py OUT"""
import struct
import sys

words = struct.unpack('<128I', open(sys.argv[1], 'rb').read())
bad = 0
for t in range(32):
    want = (3 * ((t + 1) % 32) + 1, 3 * t + 1, 3 * t + 101, 0x1000 + 7 * t)
    got = words[4 * t:4 * t + 4]
    if got != want:
        print('thread %d: got %s, want %s' % (t, got, want))
        bad += 1
print('shared-wrap: %d of 32 threads wrong' % bad)
sys.exit(1 if bad else 0)
