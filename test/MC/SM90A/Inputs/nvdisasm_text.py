#!/usr/bin/env python3
"""The text oracle for sm_90: every .text word of each cubin, as tp-mc
prints it (`tp-mc -mcpu=CPU --disassemble`), against the text NVIDIA's
nvdisasm 11.8 prints for the same raw words (`nvdisasm -b SM90` on each
section's bytes, read here straight from the ELF file).  The texts must be
equal after the spelling differences of ALIASES, each with its reason
(SASS_FACTS 4.5 lists the first two; docs/sm90.md the table).  A word
nvdisasm prints as nothing (opcodes newer than 11.8) is counted as blank.
Prints one line of counts per cubin and every mismatch; exits 1 on any.

usage: nvdisasm_text.py [--no-aliases] NVDISASM CPU CUBIN...
(--no-aliases: compare without ALIASES, to show what each one covers)
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

# (pattern on tp-mc's text, replacement, reason)
ALIASES = [
    (r'desc\[UR\d+\](?=\[)', '',
     'nvdisasm 11.8 leaves out the memory descriptor of an address '
     '(SASS_FACTS 4.5)'),
    (r'^(\S*F2FP)(\.BF16)?\.PACK_AB', lambda m: m.group(1) +
     (m.group(2) or '.F16') + '.F32.PACK_AB',
     'nvdisasm 11.8 names the source type of F2FP.PACK_AB (SASS_FACTS 4.5)'),
    (r'^((?:@!?P\d )?(?:LD|ST)\.\S* (?:R\d+, )?)\[(UR\d+)',
     r'\1[RZ.U32+\2',
     'a generic LD/ST whose address is a UR alone: tp-mc leaves the RZ base '
     'out (docs/sass-format.md), nvdisasm 11.8 writes it as RZ.U32'),
    (r'^((?:@!?P\d )?)WARPSYNC 0x0$', r'\1WARPSYNC.ALL',
     'WARPSYNC with an empty immediate mask: nvdisasm 11.8 spells it .ALL '
     'for SM90 (its SM86 table prints WARPSYNC 0x0)'),
]

# Opcodes nvdisasm 11.8 prints as nothing (newer than its tables,
# SASS_FACTS 4.5): the word's text is tp-mc's own (docs/sm90.md).
BLANK = {
    0x9f3: 'QGMMA (FP8 wgmma, A from shared memory)',
    0xdf3: 'QGMMA (FP8 wgmma, A from registers)',
    0x836: 'VIADD (immediate)',
    0xc36: 'VIADD (uniform register)',
}


def sections(path):
    data = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    secs = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
            for i in range(shnum)]
    stroff = secs[shstrndx][4]
    for name, typ, flags, addr, off, size, *_ in secs:
        end = data.index(b'\0', stroff + name)
        sec = data[stroff + name:end].decode()
        if sec.startswith('.text'):
            yield sec, data[off:off + size]


def nvdisasm(tool, raw, tmp):
    open(tmp, 'wb').write(raw)
    r = subprocess.run([tool, '-b', 'SM90', '-hex', tmp],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit('nvdisasm: ' + r.stderr.strip())
    text = {}
    for line in r.stdout.splitlines():
        m = re.match(r'\s*/\*([0-9a-f]+)\*/\s*(.*?)\s*;?\s*/\* 0x', line)
        if m:
            text[int(m.group(1), 16)] = m.group(2).rstrip(' ;')
    return text


def tpmc(cpu, cubin):
    r = subprocess.run(['tp-mc', '-mcpu=' + cpu, '--disassemble', cubin],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit('tp-mc: ' + r.stderr.strip())
    text, sec = {}, None
    for line in r.stdout.splitlines():
        m = re.match(r'// (\.text\.\S+)', line)
        if m:
            sec = m.group(1)
            continue
        m = re.match(r'/\*([0-9a-f]+)\*/ (.*?)\s*$', line)
        if m and sec:
            text[(sec, int(m.group(1), 16))] = m.group(2)
    return text


USE_ALIASES = True


def normalize(t):
    t = re.sub(r'\s+', ' ', t.strip().rstrip(';').strip())
    for pat, rep, _ in ALIASES if USE_ALIASES else []:
        t = re.sub(pat, rep, t)
    return t


def shifted(t, base):
    """\p t with a branch target (its last operand, an address) moved by
    \p base."""
    m = re.match(r'^(.*\b(?:BRA|BSSY|CALL|BRX|RET)\S* .*?)0x([0-9a-f]+)$', t)
    if not m:
        return t
    return '%s0x%x' % (m.group(1), int(m.group(2), 16) + base)


def main():
    global USE_ALIASES
    args = sys.argv[1:]
    if args and args[0] == '--no-aliases':
        USE_ALIASES = False
        args.pop(0)
    tool, cpu = args[:2]
    failed = False
    with tempfile.TemporaryDirectory() as d:
        tmp = os.path.join(d, 'raw.bin')
        for cubin in args[2:]:
            ours = tpmc(cpu, cubin)
            n = same = blank = 0
            bad = []
            secs = list(sections(cubin))
            # One nvdisasm run over all sections back to back (it is slow to
            # start): its addresses, and so its branch targets, are the
            # section's plus the section's base.
            theirs = nvdisasm(tool, b''.join(r for _, r in secs), tmp)
            base = 0
            for sec, raw in secs:
                for off in range(0, len(raw), 16):
                    n += 1
                    t = theirs.get(base + off)
                    o = ours.get((sec, off))
                    lo = struct.unpack_from('<Q', raw, off)[0]
                    if t is None and (lo & 0xfff) in BLANK:
                        blank += 1
                    elif t is not None and o is not None and (normalize(o) == normalize(t) or
                                            shifted(normalize(o), base) ==
                                            normalize(t)):
                        same += 1
                    else:
                        bad.append('  %s+0x%x: tp-mc `%s` nvdisasm `%s`' %
                                   (sec, off, o, t))
                base += len(raw)
            name = os.path.basename(cubin)
            print('%s: %d words, %d equal, %d blank in nvdisasm, %d differ'
                  % (name, n, same, blank, len(bad)))
            for b in bad:
                print(b)
            failed |= bool(bad)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
