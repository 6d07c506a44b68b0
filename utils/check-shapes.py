#!/usr/bin/env python3
"""Proves run-time-shape kernels with tp-sim --check-schedule (issue 16).

For every target x layout pair x tile preset, builds one cubin with
`tp-llc --fixed-shape=false` (the default, said explicitly) and runs it
with `tp-sim --check-schedule --shape=S` at shapes that cut every edge:
1x1x1, 1x1000x7, 7x3x1, 127x129x65, 129x255x33, 300x200x100, 65x67x200
(one loop iteration after an empty first step, the last step partial),
and the tile's exact multiples (BM x BN x 32 S, one ring, and 2 BM x
2 BN x 64 S, two); --residual adds the residual variant; --batch adds a
batch-3 run of a --batch cubin.  One
line per run; exit 1 when any run fails.

--types adds issue 16's types and epilogue on the run-time shape, each
variant one cubin run at every edge shape: bf16 in (A, B bf16, D f32), f16
out, bf16 out, alpha/beta (alpha 0.5, beta 2; also run with --beta=0
--c-input=nan: C is never read), bias + ReLU (with f16 out: the packed
pair's first element alone at an odd N), the residual with D in f16 and
in bf16 (R of D's type); --types-only runs only those.

usage: check-shapes.py BUILD_BIN|- OUTDIR [--targets=sm_86,sm_90]
         [--tiles=large,small,128x64,256x128] [--layouts=rr,rc,cr,cc]
         [--shapes=MxNxK,...] [--residual] [--batch] [--types[=V,...]]
         [--types-only] [--jobs=N]

The lit test test/tools/tp-sim/shapes.test runs a representative subset;
the full matrix (2 x 4 x 4 x 9 runs) is this script's.
"""
import concurrent.futures
import os
import shutil
import subprocess
import sys


def tool(binp, name):
    """BUILD_BIN's tool, or (BUILD_BIN = '-') the one on PATH."""
    return shutil.which(name) if binp == '-' else os.path.join(binp, name)

TILES = {'large': (128, 128, 4), 'small': (64, 64, 4),
         '128x64': (128, 64, 4), '256x128': (256, 128, 4)}
EDGES = ['1x1x1', '1x1000x7', '7x3x1', '127x129x65', '129x255x33',
         '300x200x100', '65x67x200']
LAYOUTS = {'rr': ('rows', 'rows'), 'rc': ('rows', 'columns'),
           'cr': ('columns', 'rows'), 'cc': ('columns', 'columns')}
# The --types variants: tp-llc options, and the tp-sim runs' extra options
# (each list one run at every shape).
TYPES = {
    'bf16in': (['--a-type=bf16', '--b-type=bf16'], [[]]),
    'f16out': (['--d-type=f16'], [[]]),
    'bf16out': (['--a-type=bf16', '--b-type=bf16', '--d-type=bf16'], [[]]),
    'alphabeta': (['--alpha=0.5', '--beta=2'],
                  [[], ['--beta=0', '--c-input=nan']]),
    'biasrelu': (['--bias', '--relu', '--d-type=f16'], [[]]),
    # The residual with a narrow D: R read in D's type, widened, added in
    # f32, rounded once to D.
    'resf16': (['--residual', '--d-type=f16'], [[]]),
    'resbf16': (['--residual', '--a-type=bf16', '--b-type=bf16',
                 '--d-type=bf16'], [[]]),
}


def opt(argv, name, default):
    for a in argv:
        if a.startswith('--' + name + '='):
            return a.split('=', 1)[1].split(',')
    return default


def build(binp, out, target, lay, tile, residual, batch, types=None):
    name = '%s-%s-%s%s%s%s' % (target, lay, tile, '-res' if residual else '',
                              '-batch' if batch else '',
                              '-' + types if types else '')
    cubin = os.path.join(out, name + '.cubin')
    cmd = [tool(binp, 'tp-llc'), '-mcpu=' + target,
           '--fixed-shape=false', '--gemm=256x256x256',
           '--layout-a=' + LAYOUTS[lay][0], '--layout-b=' + LAYOUTS[lay][1],
           '--tile=' + tile, '-filetype=obj', '-o', cubin]
    if residual:
        cmd.append('--residual')
    if batch:
        cmd.append('--batch=3')
    if types:
        cmd += TYPES[types][0]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        return name, None, r.stderr.strip()
    return name, cubin, ''


def run(binp, cubin, shape, extra=()):
    r = subprocess.run([tool(binp, 'tp-sim'), cubin,
                        '--check-schedule', '--shape=' + shape] + list(extra),
                       capture_output=True, text=True)
    last = (r.stdout.strip().splitlines() or [''])[-1]
    ok = r.returncode == 0 and last == 'PASS'
    why = '' if ok else (r.stderr.strip() or r.stdout.strip()).replace(
        '\n', ' | ')[-300:]
    return ok, why


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    binp, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    targets = opt(argv, 'targets', ['sm_86', 'sm_90'])
    tiles = opt(argv, 'tiles', list(TILES))
    layouts = opt(argv, 'layouts', list(LAYOUTS))
    jobs = int(opt(argv, 'jobs', ['2'])[0])
    residual = '--residual' in argv
    batch = '--batch' in argv
    types = opt(argv, 'types', list(TYPES) if '--types' in argv else [])
    work = []
    for t in targets:
        for lay in layouts:
            for tile in tiles:
                bm, bn, s = TILES[tile]
                shapes = opt(argv, 'shapes', EDGES + [
                    '%dx%dx%d' % (bm, bn, 32 * s),
                    '%dx%dx%d' % (2 * bm, 2 * bn, 64 * s)])
                variants = [] if '--types-only' in argv else [
                    (False, False, None)]
                if residual:
                    variants.append((True, False, None))
                if batch:
                    variants.append((False, True, None))
                variants += [(False, False, ty) for ty in types]
                for res, bat, ty in variants:
                    name, cubin, err = build(binp, out, t, lay, tile, res, bat,
                                             ty)
                    if not cubin:
                        print('%s: BUILD FAILED: %s' % (name, err))
                        work.append((name, None, None, ()))
                        continue
                    runs = TYPES[ty][1] if ty else [[]]
                    for sh in (['127x129x65x3', '7x3x1x3'] if bat else shapes):
                        for extra in runs:
                            work.append((name, cubin, sh, tuple(extra)))
    fails = 0
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        futs = [(n, sh, x, ex.submit(run, binp, c, sh, x))
                for n, c, sh, x in work if c]
        for n, sh, x, f in futs:
            ok, why = f.result()
            fails += not ok
            print('%s %s%s: %s%s' % (n, sh, ''.join(' ' + a for a in x),
                                     'PASS' if ok else 'FAIL',
                                     '' if ok else ' (' + why + ')'))
    fails += sum(1 for _, c, _, _ in work if not c)
    print('%d runs, %d failed' % (len(work), fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
