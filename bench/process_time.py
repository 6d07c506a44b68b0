#!/usr/bin/env python3
"""process_time.py - tp-llc and tp-mc as whole processes (issue 13).

Measures, in one run, on an otherwise idle machine:
  0. the pipeline: the `-time-passes` totals of tp-llc (the "Pipeline:"
     line of tp's page-fault report: wall clock and CPU time in
     microseconds, minor page faults) for the default kernel and for
     --tile=256x128, each with --fixed-shape and with --fixed-shape=false
     (the run-time shape), the median of PAIRS runs;
  1. tp-llc -filetype=obj for the default kernel (4096^3, A rows, B
     columns, the 128x128 tile; fixed and run-time shape) against
     `ptxas -arch=TARGET` on the same
     algorithm's PTX (../shared/reference/ptx/gemm_ref_sm86.ptx), for
     sm_86 and sm_90: PAIRS alternating pairs (tp-llc, then ptxas), wall
     time of each process from fork to exit; the medians and their ratio;
  2. tp-mc --disassemble of a word file of WORDS 32-hex-digit words (the
     instructions of the reference cubins and of the default kernel,
     repeated), printed to a file: the median of 5 runs, in M words/s.

  bench/process_time.py [--mc-only] BUILD_DIR SHARED_DIR [PAIRS] [WORDS]

--mc-only measures part 2 alone (with the user and system time of each
run, and the load average before and after).

Each figure also as CPU time (user + system of the process, wait4): on a
loaded machine wall times grow with the load, CPU times much less.
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


CPU = {}  # the last run's user + system seconds, by command name
USER_SYS = {}  # the last run's (user, system) seconds, by command name


def wall(cmd):
    """Wall seconds of one run of cmd; its CPU seconds go to CPU[cmd[0]]
    (user + system, from wait4: what a loaded machine inflates least)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise subprocess.CalledProcessError(p.returncode, cmd)
    CPU[cmd[0]] = ru.ru_utime + ru.ru_stime
    USER_SYS[cmd[0]] = (ru.ru_utime, ru.ru_stime)
    return dt


# tp's page-fault report ends with the pipeline's totals in microseconds
# (LLVM's timing report prints seconds to four places, 0.1 ms).
TOTAL = re.compile(
    r'Pipeline: ([0-9]+) us wall, ([0-9]+) us CPU, ([0-9]+) minor faults')


def pipeline_once(tp_llc, extra, tmp):
    """One run of tp-llc -time-passes with `extra` options: the pipeline's
    wall clock and user + system time (seconds) and minor page faults."""
    r = subprocess.run([tp_llc, '-time-passes', '-o',
                        os.path.join(tmp, 'p.sass')] + extra,
                       check=True, capture_output=True, text=True)
    m = TOTAL.search(r.stderr)
    if not m:
        raise RuntimeError('no "Pipeline: ... us wall" line in the '
                           '-time-passes report of %s' % tp_llc)
    return int(m.group(1)) * 1e-6, int(m.group(2)) * 1e-6, int(m.group(3))


def pipeline_time(tp_llc, extra, runs, tmp):
    """The medians of pipeline_once() over `runs` runs."""
    walls, cpus, faults = zip(*(pipeline_once(tp_llc, extra, tmp)
                                for _ in range(runs)))
    return (statistics.median(walls), statistics.median(cpus),
            statistics.median(faults))


def compile_times(tp_llc, ptxas, ptx, target, pairs, tmp, extra=()):
    ours, theirs, ours_cpu, theirs_cpu = [], [], [], []
    a = [tp_llc, '-mcpu=' + target, '-filetype=obj', '-o',
         os.path.join(tmp, 'gemm.cubin')] + list(extra)
    b = [ptxas, '-arch=' + target, '-o', os.path.join(tmp, 'ref.cubin'), ptx]
    wall(a), wall(b)  # warm the page cache
    for _ in range(pairs):
        ours.append(wall(a))
        ours_cpu.append(CPU[a[0]])
        theirs.append(wall(b))
        theirs_cpu.append(CPU[b[0]])
    return (statistics.median(ours), statistics.median(theirs),
            statistics.median(ours_cpu), statistics.median(theirs_cpu))


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


def disassemble_times(tp_mc, tp_llc, shared, words, tmp):
    """Part 2: tp-mc --disassemble of a file of `words` words, 5 runs."""
    path, n = word_file(tp_mc, tp_llc, shared, words, tmp)
    out = os.path.join(tmp, 'words.sass')
    load = os.getloadavg()[0]
    times, cpus, users, syss = [], [], [], []
    for _ in range(5):
        times.append(wall([tp_mc, '--disassemble', path, '-o', out]))
        cpus.append(CPU[tp_mc])
        users.append(USER_SYS[tp_mc][0])
        syss.append(USER_SYS[tp_mc][1])
    t, c = statistics.median(times), statistics.median(cpus)
    print('tp-mc --disassemble, %d words (median of 5): %.1f ms, '
          '%.2f M words/s (CPU time: %.1f ms, %.2f M words/s; user %.1f ms, '
          'system %.1f ms; slowest run %.2f M words/s CPU; load average '
          '%.1f -> %.1f)' %
          (n, 1e3 * t, n / t / 1e6, 1e3 * c, n / c / 1e6,
           1e3 * statistics.median(users), 1e3 * statistics.median(syss),
           n / max(cpus) / 1e6, load, os.getloadavg()[0]))


def main():
    if any(a in ('-h', '--help') for a in sys.argv[1:]):
        print(__doc__)
        return 0
    args = [a for a in sys.argv[1:] if a != '--mc-only']
    mc_only = len(args) != len(sys.argv) - 1
    if not 2 <= len(args) <= 4 or any(a.startswith('-') for a in args):
        sys.stderr.write('usage: bench/process_time.py [--mc-only] BUILD_DIR '
                         'SHARED_DIR [PAIRS] [WORDS] (--help explains)\n')
        return 2
    build, shared = args[0], args[1]
    pairs = int(args[2]) if len(args) > 2 else 15
    words = int(args[3]) if len(args) > 3 else 2000000
    tp_llc = os.path.join(build, 'bin', 'tp-llc')
    tp_mc = os.path.join(build, 'bin', 'tp-mc')
    ptxas = os.environ.get('PTXAS', '/usr/local/cuda/bin/ptxas')
    ptx = os.path.join(shared, 'reference', 'ptx', 'gemm_ref_sm86.ptx')
    with tempfile.TemporaryDirectory() as tmp:
        if mc_only:
            disassemble_times(tp_mc, tp_llc, shared, words, tmp)
            return 0
        # Both shape modes named explicitly: the figures do not depend on
        # which one is tp-llc's default.
        for name, extra in (('fixed shape', ['--fixed-shape']),
                            ('run-time shape', ['--fixed-shape=false']),
                            ('--tile=256x128 fixed',
                             ['--tile=256x128', '--fixed-shape']),
                            ('--tile=256x128 run-time',
                             ['--tile=256x128', '--fixed-shape=false'])):
            t, c, f = pipeline_time(tp_llc, extra, pairs, tmp)
            print('pipeline (-time-passes total), %s, median of %d: %.3f ms '
                  '(CPU time: %.3f ms), %d minor faults' %
                  (name, pairs, 1e3 * t, 1e3 * c, f))
        for kernel, extra in (('fixed shape', ['--fixed-shape']),
                              ('run-time shape', ['--fixed-shape=false'])):
            for target in ('sm_86', 'sm_90'):
                if not os.path.exists(ptxas):
                    print('ptxas not found (%s): no compile comparison' %
                          ptxas)
                    break
                t, p, tc, pc = compile_times(tp_llc, ptxas, ptx, target,
                                             pairs, tmp, extra)
                print('%s, %s, median of %d alternating pairs: tp-llc %.2f '
                      'ms, ptxas %.2f ms, ratio %.1fx (CPU time: %.2f ms, '
                      '%.2f ms, %.1fx)' %
                      (target, kernel, pairs, 1e3 * t, 1e3 * p, p / t,
                       1e3 * tc, 1e3 * pc, pc / tc if tc else 0.0))
        disassemble_times(tp_mc, tp_llc, shared, words, tmp)
    return 0


if __name__ == '__main__':
    sys.exit(main())
