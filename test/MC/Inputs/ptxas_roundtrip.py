#!/usr/bin/env python3
"""ptxas round trip for one target: for each PTX file, rewrite its .target
line to the target (and, for sm_100 and later, its .version to 8.8), build a cubin with `ptxas -arch=<target>`, disassemble
every .text word with `tp-mc -mcpu=<target> --disassemble`, re-assemble the
text with `tp-mc -mcpu=<target> --assemble`, and compare the re-assembled
words with the bytes of the cubin's .text sections, read here straight
from the ELF file (independently of tp-mc).  Words tp-mc cannot decode are
counted and listed as unknown (with their 12-bit opcode) rather than
stopping the run.  Prints one line of counts per file; exits 1 on any
unknown word or mismatch.

usage: ptxas_roundtrip.py [--mcpu=CPU] PTXAS TARGET OUTDIR FILE.ptx...
(--mcpu: decode with another target's tables, to show what they miss; the
words are then given to tp-mc as text, since a cubin's own target wins)
"""
import os
import re
import struct
import subprocess
import sys


def text_words(path):
    """(section, offset, 32-hex-digit word) of every .text* word."""
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
        sec = data[stroff + name:end].decode()
        if not sec.startswith('.text'):
            continue
        for k in range(0, size, 16):
            lo, hi = struct.unpack_from('<QQ', data, off + k)
            words.append((sec, k, '%016x%016x' % (hi, lo)))
    return words


def main():
    args = sys.argv[1:]
    mcpu = None
    if args and args[0].startswith('--mcpu='):
        mcpu = '-mcpu=' + args.pop(0)[len('--mcpu='):]
    as_words = mcpu is not None
    ptxas, target, outdir = args[:3]
    mcpu = mcpu or '-mcpu=' + target
    os.makedirs(outdir, exist_ok=True)
    failed = False
    for ptx in args[3:]:
        name = os.path.basename(ptx)[:-4]
        base = os.path.join(outdir, name)
        src = open(ptx).read()
        src, n = re.subn(r'^\.target\s+sm_\w+', '.target ' + target, src,
                         count=1, flags=re.M)
        assert n == 1, ptx + ': no .target line'
        if int(re.match(r'sm_(\d+)', target).group(1)) >= 100:
            # Blackwell needs PTX ISA 8.6 or later (ptxas 13).
            src = re.sub(r'^\.version\s+[0-9.]+', '.version 8.8', src,
                         count=1, flags=re.M)
        open(base + '.ptx', 'w').write(src)
        subprocess.check_call([ptxas, '-arch=' + target, '-o',
                               base + '.cubin', base + '.ptx'])
        raw = text_words(base + '.cubin')
        dis_in = base + '.cubin'
        if as_words:
            dis_in = base + '.words'
            with open(dis_in, 'w') as f:
                for _, off, w in raw:
                    f.write('/*%04x*/ %s\n' % (off, w))
        dis = subprocess.run(['tp-mc', mcpu, '--disassemble',
                              '--show-control', dis_in, '-o',
                              base + '.s'], capture_output=True, text=True)
        unknown = re.findall(r'instruction at address 0x[0-9a-f]+: '
                             r'0x([0-9a-f]{32})', dis.stderr)
        if unknown or dis.returncode:
            print('%s: %d instructions, %d unknown, - mismatches' %
                  (name, len(raw), len(unknown)))
            ops = {}
            for w in unknown:
                ops.setdefault('0x%03x' % (int(w, 16) & 0xfff), w)
            for op, w in sorted(ops.items()):
                print('  unknown opcode %s, e.g. 0x%s' % (op, w))
            failed = True
            continue
        subprocess.check_call(['tp-mc', mcpu, '--assemble', '--show-control',
                               '--show-encoding', base + '.s', '-o',
                               base + '.re'])
        re_words = re.findall(r'encoding: 0x([0-9a-f]{32})',
                              open(base + '.re').read())
        bad = sum(1 for (_, _, a), b in zip(raw, re_words) if a != b)
        bad += abs(len(raw) - len(re_words))
        print('%s: %d instructions, 0 unknown, %d mismatches' %
              (name, len(raw), bad))
        for (sec, off, a), b in zip(raw, re_words):
            if a != b:
                print('  %s+0x%x: cubin 0x%s re-assembled 0x%s' %
                      (sec, off, a, b))
        failed |= bad != 0
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
