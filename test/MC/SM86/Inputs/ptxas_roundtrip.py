#!/usr/bin/env python3
"""ptxas round trip: for each PTX file, build a sm_86 cubin with ptxas,
disassemble it with tp-mc (which fails on any unknown word), re-assemble the
text, and compare the re-assembled words with the bytes of the cubin's
.text sections, read here straight from the ELF file (independently of
tp-mc).  Prints one line of counts per file; exits 1 on any mismatch.

usage: ptxas_roundtrip.py PTXAS OUTDIR FILE.ptx...
"""
import os
import re
import struct
import subprocess
import sys


def text_words(path):
    """The 128-bit words of every .text* section, in section order."""
    data = open(path, 'rb').read()
    assert data[:4] == b'\x7fELF' and data[4] == 2, 'not an ELF64 file'
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    secs = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
            for i in range(shnum)]
    stroff = secs[shstrndx][4]
    words = []
    for name, typ, flags, addr, off, size, *_ in secs:
        end = data.index(b'\0', stroff + name)
        if not data[stroff + name:end].startswith(b'.text'):
            continue
        for k in range(off, off + size, 16):
            lo, hi = struct.unpack_from('<QQ', data, k)
            words.append('%016x%016x' % (hi, lo))
    return words


def main():
    ptxas, outdir = sys.argv[1], sys.argv[2]
    failed = False
    for ptx in sys.argv[3:]:
        base = os.path.join(outdir, os.path.basename(ptx)[:-4])
        subprocess.check_call([ptxas, '-arch=sm_86', '-o', base + '.cubin',
                               ptx])
        subprocess.check_call(['tp-mc', '--disassemble', '--show-control',
                               base + '.cubin', '-o', base + '.s'])
        subprocess.check_call(['tp-mc', '--assemble', '--show-control',
                               '--show-encoding', base + '.s', '-o',
                               base + '.re'])
        raw = text_words(base + '.cubin')
        re_words = re.findall(r'encoding: 0x([0-9a-f]{32})',
                              open(base + '.re').read())
        bad = sum(1 for a, b in zip(raw, re_words) if a != b)
        bad += abs(len(raw) - len(re_words))
        print('%s: %d instructions, 0 unknown, %d mismatches' %
              (os.path.basename(ptx), len(raw), bad))
        for a, b in zip(raw, re_words):
            if a != b:
                print('  cubin 0x%s re-assembled 0x%s' % (a, b))
        failed |= bad != 0
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
