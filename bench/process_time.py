#!/usr/bin/env python3
"""process_time.py - tp-llc and tp-mc as whole processes (issue 13).

Measures, in one run, on an otherwise idle machine:
  0. the pipeline: the `-time-passes` total (wall clock) of tp-llc for the
     default kernel and for --tile=256x128, the median of PAIRS runs;
  1. tp-llc -filetype=obj for the default kernel (4096^3, A rows, B
     columns, the 128x128 tile) against `ptxas -arch=TARGET` on the same
     algorithm's PTX (../shared/reference/ptx/gemm_ref_sm86.ptx), for
     sm_86 and sm_90: PAIRS alternating pairs (tp-llc, then ptxas), wall
     time of each process from fork to exit; the medians and their ratio;
  2. tp-mc --disassemble of a word file of WORDS 32-hex-digit words (the
     instructions of the reference cubins and of the default kernel,
     repeated), printed to a file: the median of 5 runs, in M words/s.

  bench/process_time.py BUILD_DIR SHARED_DIR [PAIRS] [WORDS]

Defaults: 15 pairs, 2 M words.  Not a test: timings vary with the
machine; `ninja -C build bench` runs it.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def wall(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


TOTAL = re.compile(r'Total Execution Time: [0-9.]+ seconds \(([0-9.]+) wall')


def pipeline_time(tp_llc, extra, runs, tmp):
    """The median -time-passes total of tp-llc with `extra` options."""
    totals = []
    for _ in range(runs):
        r = subprocess.run([tp_llc, '-time-passes', '-o',
                            os.path.join(tmp, 'p.sass')] + extra,
                           check=True, capture_output=True, text=True)
        m = TOTAL.search(r.stderr)
        totals.append(float(m.group(1)))
    return statistics.median(totals)


def compile_times(tp_llc, ptxas, ptx, target, pairs, tmp):
    ours, theirs = [], []
    a = [tp_llc, '-mcpu=' + target, '-filetype=obj', '-o',
         os.path.join(tmp, 'gemm.cubin')]
    b = [ptxas, '-arch=' + target, '-o', os.path.join(tmp, 'ref.cubin'), ptx]
    wall(a), wall(b)  # warm the page cache
    for _ in range(pairs):
        ours.append(wall(a))
        theirs.append(wall(b))
    return statistics.median(ours), statistics.median(theirs)


def word_file(tp_mc, tp_llc, shared, words, tmp):
    """A file of `words` words: every instruction word of the default
    kernel's cubin, repeated."""
    cubin = os.path.join(tmp, 'w.cubin')
    subprocess.run([tp_llc, '-filetype=obj', '-o', cubin], check=True)
    text = subprocess.run([tp_mc, '--disassemble', '--show-encoding', cubin],
                          check=True, capture_output=True, text=True).stdout
    base = []
    for line in text.splitlines():
        i = line.find('encoding: 0x')
        if i >= 0:
            base.append(line[i + 12:i + 44])
    path = os.path.join(tmp, 'words.txt')
    with open(path, 'w') as f:
        n = 0
        while n < words:
            for w in base:
                f.write(w + '\n')
            n += len(base)
    return path, n


def main():
    build, shared = sys.argv[1], sys.argv[2]
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    words = int(sys.argv[4]) if len(sys.argv) > 4 else 2000000
    tp_llc = os.path.join(build, 'bin', 'tp-llc')
    tp_mc = os.path.join(build, 'bin', 'tp-mc')
    ptxas = os.environ.get('PTXAS', '/usr/local/cuda/bin/ptxas')
    ptx = os.path.join(shared, 'reference', 'ptx', 'gemm_ref_sm86.ptx')
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra in (('default kernel', []),
                            ('--tile=256x128', ['--tile=256x128'])):
            t = pipeline_time(tp_llc, extra, pairs, tmp)
            print('pipeline (-time-passes total), %s, median of %d: %.3f ms'
                  % (name, pairs, 1e3 * t))
        for target in ('sm_86', 'sm_90'):
            if not os.path.exists(ptxas):
                print('ptxas not found (%s): no compile comparison' % ptxas)
                break
            t, p = compile_times(tp_llc, ptxas, ptx, target, pairs, tmp)
            print('%s, median of %d alternating pairs: tp-llc %.2f ms, '
                  'ptxas %.2f ms, ratio %.1fx' %
                  (target, pairs, 1e3 * t, 1e3 * p, p / t))
        path, n = word_file(tp_mc, tp_llc, shared, words, tmp)
        out = os.path.join(tmp, 'words.sass')
        times = sorted(wall([tp_mc, '--disassemble', path, '-o', out])
                       for _ in range(5))
        t = statistics.median(times)
        print('tp-mc --disassemble, %d words (median of 5): %.1f ms, '
              '%.2f M words/s' % (n, 1e3 * t, n / t / 1e6))
    return 0


if __name__ == '__main__':
    sys.exit(main())
