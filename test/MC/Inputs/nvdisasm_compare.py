#!/usr/bin/env python3
"""tp-mc's text against nvdisasm 11.8's for every .text word of cubins
(sm_80..sm_90, the targets nvdisasm 11.8 knows).  Each section's words go
to `nvdisasm -b SMxx` as raw bytes (it cannot read CUDA 13 cubins,
SASS_FACTS 4.5) and to `tp-mc -mcpu=sm_xx --disassemble` as words at their
section offsets; the texts must be equal up to the two spellings SASS_FACTS
4.5 lists (nvdisasm omits desc[URx] and spells F2FP.PACK_AB with .F16.F32 /
.F32).  Words nvdisasm 11.8 prints blank (opcodes newer than it: VIADD,
VIMNMX, ...) are skipped and counted.  With --only=M1,M2 only words whose
tp-mc mnemonic starts with one of those are compared.  Prints one line per
cubin; exits 1 on any difference.

usage: nvdisasm_compare.py NVDISASM [--only=...] TARGET CUBIN...
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptxas_roundtrip import text_words  # noqa: E402


def norm(s):
    s = re.sub(r'desc\[UR\d+\]', '', s)
    s = s.replace('F2FP.F16.F32.PACK_AB', 'F2FP.PACK_AB')
    s = s.replace('F2FP.BF16.F32.PACK_AB', 'F2FP.BF16.PACK_AB')
    return re.sub(r'\s+', ' ', s).strip()


def nvdisasm_lines(nvdisasm, sm, data):
    with tempfile.NamedTemporaryFile(suffix='.bin', delete=False) as f:
        f.write(data)
        path = f.name
    try:
        out = subprocess.run([nvdisasm, '-b', sm, path], capture_output=True,
                             text=True)
    finally:
        os.unlink(path)
    if out.returncode:
        sys.exit('nvdisasm failed: ' + out.stderr.strip())
    lines = {}
    for line in out.stdout.splitlines():
        m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;?\s*$', line)
        if m:
            lines[int(m.group(1), 16)] = m.group(2).rstrip(' ;')
    return lines


def main():
    args = sys.argv[1:]
    nvdisasm = args.pop(0)
    only = None
    if args[0].startswith('--only='):
        only = tuple(args.pop(0)[len('--only='):].split(','))
    target = args.pop(0)
    sm = 'SM' + target[3:]
    failed = False
    for cubin in args:
        words = text_words(cubin)
        sections = {}
        for sec, off, w in words:
            sections.setdefault(sec, []).append((off, w))
        same = differ = blank = 0
        for sec, ws in sections.items():
            data = b''.join(bytes.fromhex(w)[::-1] for _, w in ws)
            theirs = nvdisasm_lines(nvdisasm, sm, data)
            text = '\n'.join('/*%04x*/ %s' % (o, w) for o, w in ws) + '\n'
            ours = subprocess.run(['tp-mc', '-mcpu=' + target, '--disassemble',
                                   '-', '-o', '-'], input=text,
                                  capture_output=True, text=True)
            if ours.returncode:
                sys.exit('tp-mc failed: ' + ours.stderr.strip())
            # One line a word, in order (words given as text print no
            # address).
            texts = [line.strip() for line in ours.stdout.splitlines()
                     if line.strip() and not line.startswith(('//', '.'))]
            if len(texts) != len(ws):
                sys.exit('%s: tp-mc printed %d lines for %d words'
                         % (sec, len(texts), len(ws)))
            mine = {off: t for (off, _), t in zip(ws, texts)}
            for off, _ in ws:
                a = mine.get(off, '')
                b = theirs.get(off, '')
                mnem = re.sub(r'^@!?U?P\w+\s+', '', a)
                if only and not mnem.startswith(only):
                    continue
                if not b:
                    blank += 1
                    continue
                if norm(a) == norm(b):
                    same += 1
                else:
                    differ += 1
                    failed = True
                    print('  %s 0x%04x: tp-mc "%s", nvdisasm "%s"'
                          % (sec, off, a, b))
        print('%s: %d equal, %d differ, %d blank in nvdisasm'
              % (os.path.basename(cubin), same, differ, blank))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
