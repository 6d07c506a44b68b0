#!/usr/bin/env python3
"""compare_ptxas.py - tp-llc against ptxas on the default kernel.

Measures, in one run:
  1. compile time: tp-llc -filetype=obj for the default kernel (4096^3,
     A rows, B columns, large tile) against `ptxas -arch=sm_86` on the
     equivalent PTX kernel (../shared/reference/ptx/gemm_ref_sm86.ptx, the
     same 128x128x32 tile, 8 warps, 4 stages); best of N runs each, and the
     ratio;
  2. static schedule figures of both cubins, read back with
     `tp-mc --disassemble --show-control`: the main loop (the backward
     branch), its instructions, HMMAs, issue cycles (each instruction
     max(stall, 1)), issue cycles per k-step per warp (a k-step is 32 HMMAs a
     warp in both kernels).

  3. with `timing` instead of RUNS: only the timing model's table: for
     every card in bench/cards, the modeled TFLOP/s of tp-llc's default
     kernel and of ptxas's build of the same algorithm, and the ratio
     (`tp-sim --timing=CARD --timing-sample`: one SM's resident blocks over
     the full K, the grid in waves; sm_86 cubins on sm_8x cards, sm_90
     cubins on sm_90 cards).

  bench/compare_ptxas.py BUILD_DIR SHARED_DIR [RUNS] [TARGET]
  bench/compare_ptxas.py BUILD_DIR SHARED_DIR timing

TARGET: sm_86 (default) or sm_90: tp-llc -mcpu=TARGET against ptxas
-arch=TARGET on the same PTX, both read back with tp-mc -mcpu=TARGET.

Not a test: timings vary with the machine; run it by hand.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

LINE = re.compile(r'^/\*([0-9a-f]+)\*/ (.*?) \{([^}]*)\}$')
HMMAS_PER_KSTEP = 32  # 4 m-tiles x 4 n-tiles x 2 k-halves a warp


def best_time(cmd, runs):
    best = None
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        dt = time.perf_counter() - t0
        best = dt if best is None or dt < best else best
    return best


def loop_figures(tp_mc, cubin, target):
    text = subprocess.run([tp_mc, '-mcpu=' + target, '--disassemble',
                           '--show-control', cubin],
                          check=True, capture_output=True, text=True).stdout
    code = []
    for line in text.splitlines():
        m = LINE.match(line.strip())
        if m:
            stall = re.search(r'stall=(\d+)', m.group(3))
            code.append((int(m.group(1), 16), m.group(2),
                         int(stall.group(1)) if stall else 0))
    loops = []
    for addr, text_, _ in code:
        m = re.search(r'BRA (0x[0-9a-f]+)', text_)
        if m and int(m.group(1), 16) < addr:
            loops.append((int(m.group(1), 16), addr))
    if not loops:
        return None
    start, end = max(loops, key=lambda l: l[1] - l[0])
    body = [c for c in code if start <= c[0] <= end]
    hmma = sum(1 for c in body if c[1].split()[0].startswith('HMMA'))
    cycles = sum(max(1, c[2]) for c in body)
    return {
        'instructions': len(code),
        'loop': '0x%x..0x%x' % (start, end),
        'loop instructions': len(body),
        'loop HMMAs': hmma,
        'loop issue cycles': cycles,
        'k-steps a loop iteration': hmma / HMMAS_PER_KSTEP,
        'issue cycles per k-step per warp':
            cycles / (hmma / HMMAS_PER_KSTEP) if hmma else 0.0,
    }


CARDS = ['rtx3090', 'a10', 'a40', 'a100', 'h100-sxm', 'h200']
GEMM = 4096


def ref_manifest(path, target):
    """The launch manifest of ptxas's gemm_ref kernel for the 4096^3 GEMM
    (128x128 tiles, 8 warps, 64 KiB of dynamic shared memory)."""
    params = [('A', 0, 8), ('B', 8, 8), ('C', 16, 8), ('M', 24, 4),
              ('N', 28, 4), ('K', 32, 4)]
    m = {'format_version': 1, 'kernel': 'gemm_sm86_rows_cols',
         'target': target, 'grid': [GEMM // 128, GEMM // 128, 1],
         'block': [256, 1, 1], 'dynamic_shared_bytes': 65536,
         'static_shared_bytes': 0,
         'params': [{'name': n, 'role': n, 'offset': o, 'size': z}
                    for n, o, z in params],
         'm': GEMM, 'n': GEMM, 'k': GEMM, 'layout_a': 'rows',
         'layout_b': 'columns', 'residual': False}
    with open(path, 'w') as f:
        json.dump(m, f)


def card_arch(card):
    """The card file's compute capability (86, 80, 90)."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, 'cards', card + '.json')) as f:
        return json.load(f)['arch'][0]


def modeled(tp_sim, cubin, card, tmp, manifest=None):
    out = os.path.join(tmp, 'timing.json')
    cmd = [tp_sim, cubin, '--timing=' + card, '--timing-sample',
           '--timing-json=' + out]
    if manifest:
        cmd += ['--manifest', manifest]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)


def timing_table(build, shared, ptxas):
    """Prints the modeled TFLOP/s of both kernels on every card."""
    tp_llc = os.path.join(build, 'bin', 'tp-llc')
    tp_sim = os.path.join(build, 'bin', 'tp-sim')
    ptx = os.path.join(shared, 'reference', 'ptx', 'gemm_ref_sm86.ptx')
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for target in ('sm_86', 'sm_90'):
            ours = os.path.join(tmp, 'tp_%s.cubin' % target)
            subprocess.run([tp_llc, '-mcpu=' + target, '-filetype=obj',
                            '-o', ours], check=True)
            src = os.path.join(tmp, 'ref_%s.ptx' % target)
            with open(ptx) as f:
                text = f.read()
            with open(src, 'w') as f:
                f.write(text.replace('.target sm_86', '.target ' + target))
            theirs = os.path.join(tmp, 'ref_%s.cubin' % target)
            subprocess.run([ptxas, '-arch=' + target, '-o', theirs, src],
                           check=True)
            man = os.path.join(tmp, 'ref_%s.json' % target)
            ref_manifest(man, target)
            for card in CARDS:
                if card_arch(card) // 10 != int(target[3:]) // 10:
                    continue
                a = modeled(tp_sim, ours, card, tmp)
                b = modeled(tp_sim, theirs, card, tmp, man)
                rows.append((a['card'], target, a, b))
    print('modeled %d^3 GEMM (tp-sim --timing), TFLOP/s:' % GEMM)
    print('| card | code | tp-llc | ptxas | tp/ptxas | tp tensor util. | '
          'ptxas tensor util. | tp blocks/SM | ptxas blocks/SM |')
    print('|---|---|---|---|---|---|---|---|---|')
    for card, target, a, b in rows:
        print('| %s | %s | %.1f | %.1f | %.2f | %.2f | %.2f | %d | %d |' %
              (card, target, a['tflops'], b['tflops'],
               a['tflops'] / b['tflops'], a['tensor_utilization'],
               b['tensor_utilization'], a['blocks_per_sm'],
               b['blocks_per_sm']))
    return 0


def main():
    build, shared = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3 and sys.argv[3] == 'timing':
        return timing_table(build, shared,
                            os.environ.get('PTXAS',
                                           '/usr/local/cuda/bin/ptxas'))
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    target = sys.argv[4] if len(sys.argv) > 4 else 'sm_86'
    tp_llc = os.path.join(build, 'bin', 'tp-llc')
    tp_mc = os.path.join(build, 'bin', 'tp-mc')
    ptxas = os.environ.get('PTXAS', '/usr/local/cuda/bin/ptxas')
    ptx = os.path.join(shared, 'reference', 'ptx', 'gemm_ref_sm86.ptx')
    with tempfile.TemporaryDirectory() as tmp:
        ours = os.path.join(tmp, 'gemm.cubin')
        theirs = os.path.join(tmp, 'ref.cubin')
        t_ours = best_time([tp_llc, '-mcpu=' + target, '-filetype=obj', '-o',
                            ours], runs)
        t_ptxas = best_time([ptxas, '-arch=' + target, '-o', theirs, ptx],
                            runs)
        print('compile time (best of %d):' % runs)
        print('  tp-llc (default kernel, -filetype=obj): %8.1f ms' %
              (1e3 * t_ours))
        print('  ptxas -arch=%s gemm_ref_sm86.ptx:    %8.1f ms' %
              (target, 1e3 * t_ptxas))
        print('  ratio ptxas / tp-llc:                   %8.1f' %
              (t_ptxas / t_ours))
        for name, cubin in (('tp-llc', ours), ('ptxas', theirs)):
            f = loop_figures(tp_mc, cubin, target)
            print('static schedule, %s:' % name)
            for k, v in (f or {}).items():
                print('  %-34s %s' % (k + ':', ('%.2f' % v)
                                      if isinstance(v, float) else v))
    return 0


if __name__ == '__main__':
    sys.exit(main())
