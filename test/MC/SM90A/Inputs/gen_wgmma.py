#!/usr/bin/env python3
"""Writes the sm_90a wgmma corpus: one PTX file per input type, one kernel
per (shape, accumulator, A source).  Every N the PTX ISA allows for the
type (9.7.15.5.1: multiples of 8 up to 256; 8, 16, 24 and multiples of 16
for the integer types), A from shared memory (a descriptor) and, where the
type allows, from registers; f32 and f16 accumulators for the float types.
Each kernel issues three wgmma in one commit group: the first with a zero
accumulator (ptxas folds it to `RZ, !UPT`), the second with scale-d from a
parameter (a uniform predicate), the third with a constant scale-d (no
predicate), then waits and stores D, so that ptxas keeps every register.  Plus one file of the immediate operands: every
transpose, negated A and B, scale-d as a constant, groups of four and two
groups in flight (wait_group 1).

usage: gen_wgmma.py OUTDIR  (writes wgmma_<type>.ptx and wgmma_imm.ptx)
       gen_wgmma.py --forms FILE  (one file: every type at N = 64 and the
       immediates; wgmma_forms.ptx, the checked-in corpus that
       unittests/Target/SM86CoverageTest.cpp builds)
"""
import os
import sys

HEAD = '.version 8.4\n.target sm_90a\n.address_size 64\n\n'

# name, PTX type suffix (dtype.atype.btype per accumulator), K, A from
# registers allowed, transposes allowed, immediate scales allowed
TYPES = [
    ('f16', {'f32': 'f32.f16.f16', 'f16': 'f16.f16.f16'}, 16, True, True, True),
    ('bf16', {'f32': 'f32.bf16.bf16'}, 16, True, True, True),
    ('tf32', {'f32': 'f32.tf32.tf32'}, 8, True, False, True),
    ('e4m3', {'f32': 'f32.e4m3.e4m3', 'f16': 'f16.e4m3.e4m3'}, 32, True, False, True),
    ('e5m2', {'f32': 'f32.e5m2.e5m2', 'f16': 'f16.e5m2.e5m2'}, 32, True, False, True),
    ('e4m3e5m2', {'f32': 'f32.e4m3.e5m2'}, 32, True, False, True),
    ('e5m2e4m3', {'f16': 'f16.e5m2.e4m3'}, 32, True, False, True),
    ('s8', {'s32': 's32.s8.s8'}, 32, True, False, False),
    ('u8', {'s32': 's32.u8.u8'}, 32, True, False, False),
    ('s8u8', {'s32': 's32.s8.u8'}, 32, True, False, False),
    ('u8s8', {'s32': 's32.u8.s8'}, 32, True, False, False),
    ('b1', {'s32': 's32.b1.b1'}, 256, False, False, False),
]


def shapes(name):
    if name in ('s8', 'u8', 's8u8', 'u8s8', 'b1'):
        return [8, 16, 24] + list(range(32, 257, 16))
    return list(range(8, 257, 8))


def dregs(acc, n):
    return n // 4 if acc == 'f16' else n // 2


def kernel(name, acc, suffix, k, n, rs, trans, scales, sat=False):
    nd = dregs(acc, n)
    kname = 'wg_%s_%s_n%d_%s' % (name, acc, n, 'rs' if rs else 'ss')
    d = '{' + ', '.join('%%d%d' % i for i in range(nd)) + '}'
    a = '{%a0, %a1, %a2, %a3}' if rs else '%da'
    op = 'wgmma.mma_async.sync.aligned.m64n%dk%d.%s' % (n, k, suffix)
    if name == 'b1':
        op += '.and.popc'
    if sat:
        op += '.satfinite'
    imm = ''
    if scales:
        imm += ', 1, 1'
    if trans:
        imm += ', 0' if rs else ', 0, 0'
    out = ['.visible .entry %s(.param .u64 out, .param .u64 pa, '
           '.param .u64 pb, .param .u32 flag)' % kname, '{',
           '  .reg .b64 %da, %db, %o, %t;', '  .reg .b32 %%d<%d>, %%a<4>, %%f, %%x;' % nd,
           '  .reg .pred %p;',
           '  ld.param.u64 %da, [pa];', '  ld.param.u64 %db, [pb];',
           '  ld.param.u64 %o, [out];', '  ld.param.u32 %f, [flag];',
           '  setp.ne.u32 %p, %f, 0;']
    if rs:
        out += ['  ld.global.v4.u32 {%a0, %a1, %a2, %a3}, [%da];']
    out += ['  mov.u32 %%d%d, 0;' % i for i in range(nd)]
    out += ['  wgmma.fence.sync.aligned;',
            '  %s %s, %s, %%db, 0%s;' % (op, d, a, imm),
            '  %s %s, %s, %%db, %%p%s;' % (op, d, a, imm),
            '  %s %s, %s, %%db, 1%s;' % (op, d, a, imm),
            '  wgmma.commit_group.sync.aligned;',
            '  wgmma.wait_group.sync.aligned 0;',
            '  mov.u32 %x, %tid.x;', '  mul.wide.u32 %t, %x, 1024;',
            '  add.u64 %o, %o, %t;']
    for i in range(0, nd, 4):
        out.append('  st.global.v4.u32 [%%o+%d], {%s};' % (
            i * 4, ', '.join('%%d%d' % min(j, nd - 1) for j in range(i, i + 4))))
    out += ['  ret;', '}', '']
    return '\n'.join(out)


def imm_file():
    """The immediate operands and the grouping on one shape."""
    ks = []
    op = 'wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16'
    d = '{' + ', '.join('%%d%d' % i for i in range(32)) + '}'
    body = []
    for ta in (0, 1):
        for tb in (0, 1):
            body.append('  %s %s, %%da, %%db, %%p, 1, 1, %d, %d;' % (op, d, ta, tb))
    body.append('  %s %s, %%da, %%db, %%p, -1, 1, 0, 0;' % (op, d))
    body.append('  %s %s, %%da, %%db, %%p, 1, -1, 0, 0;' % (op, d))
    body.append('  %s %s, %%da, %%db, %%p, -1, -1, 1, 1;' % (op, d))
    body.append('  %s %s, {%%a0, %%a1, %%a2, %%a3}, %%db, %%p, -1, -1, 1;' % (op, d))
    body.append('  %s %s, %%da, %%db, 1, 1, 1, 0, 0;' % (op, d))
    body.append('  wgmma.commit_group.sync.aligned;')
    body.append('  %s %s, %%da, %%db, %%p, 1, 1, 0, 0;' % (op, d))
    body.append('  wgmma.commit_group.sync.aligned;')
    body.append('  wgmma.wait_group.sync.aligned 1;')
    body.append('  wgmma.wait_group.sync.aligned 0;')
    sop = 'wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8.satfinite'
    body2 = ['  %s %s, %%da, %%db, %%p;' % (sop, d),
             '  %s %s, {%%a0, %%a1, %%a2, %%a3}, %%db, %%p;' % (sop, d),
             '  wgmma.commit_group.sync.aligned;',
             '  wgmma.wait_group.sync.aligned 0;']
    for kname, b in (('wg_imm', body), ('wg_sat', body2)):
        out = ['.visible .entry %s(.param .u64 out, .param .u64 pa, '
               '.param .u64 pb, .param .u32 flag)' % kname, '{',
               '  .reg .b64 %da, %db, %o, %t;', '  .reg .b32 %d<32>, %a<4>, %f, %x;',
               '  .reg .pred %p;',
               '  ld.param.u64 %da, [pa];', '  ld.param.u64 %db, [pb];',
               '  ld.param.u64 %o, [out];', '  ld.param.u32 %f, [flag];',
               '  setp.ne.u32 %p, %f, 0;',
               '  ld.global.v4.u32 {%a0, %a1, %a2, %a3}, [%da];']
        out += ['  ld.global.u32 %%d%d, [%%o+%d];' % (i, 4 * i) for i in range(32)]
        out += ['  wgmma.fence.sync.aligned;'] + b
        out += ['  mov.u32 %x, %tid.x;', '  mul.wide.u32 %t, %x, 1024;',
                '  add.u64 %o, %o, %t;']
        for i in range(0, 32, 4):
            out.append('  st.global.v4.u32 [%%o+%d], {%s};' % (
                i * 4, ', '.join('%%d%d' % j for j in range(i, i + 4))))
        out += ['  ret;', '}', '']
        ks.append('\n'.join(out))
    return HEAD + '\n'.join(ks)


def forms_file():
    ks = []
    for name, accs, k, rs_ok, trans, scales in TYPES:
        for acc, suffix in accs.items():
            for rs in ([False, True] if rs_ok else [False]):
                ks.append(kernel(name, acc, suffix, k, 64, rs, trans, scales))
    return HEAD + '\n'.join(ks) + '\n' + imm_file()[len(HEAD):]


def main():
    if sys.argv[1] == '--forms':
        open(sys.argv[2], 'w').write(
            '// Generated by gen_wgmma.py --forms: every wgmma type at N = 64.\n'
            + forms_file())
        return 0
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for name, accs, k, rs_ok, trans, scales in TYPES:
        ks = []
        for acc, suffix in accs.items():
            for n in shapes(name):
                for rs in ([False, True] if rs_ok else [False]):
                    ks.append(kernel(name, acc, suffix, k, n, rs, trans, scales))
        open(os.path.join(outdir, 'wgmma_%s.ptx' % name), 'w').write(
            HEAD + '\n'.join(ks))
    open(os.path.join(outdir, 'wgmma_imm.ptx'), 'w').write(imm_file())
    return 0


if __name__ == '__main__':
    sys.exit(main())
