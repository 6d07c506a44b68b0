#!/usr/bin/env python3
"""tp-sim -j 1 against -j 2 (or -j N): does a second host thread halve the
wall time of a launch, and does the work divide evenly?

  bench/Sim/thread_scaling.py BUILD_DIR [SIZE] [PAIRS] [N]

Builds tp-llc's default kernel for SIZE^3 (default 1024), then runs
`tp-sim --print-stats` PAIRS times (default 5) alternating -j 1 and -j N
(default 2) and prints, per -j: the median launch wall time and CPU time
(every host thread's; the reference product and the set-up are outside
the launch), and for -j N the blocks and CPU time of each host thread;
then the ratios.  The 1-minute load average before and after each run is
printed too: on a machine other work keeps busy a second thread finds no
free core, and the wall-time ratio says so, not the simulator.  Not a test.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile

SPEED = re.compile(r'speed: ([0-9.]+) s, .*; CPU ([0-9.]+) s')
HOSTS = re.compile(r'host threads: \d+; blocks ([0-9 ]+); CPU ([0-9. ]+) s')


def load():
    return os.getloadavg()[0]


def run(tp_sim, cubin, j):
    out = subprocess.run([tp_sim, cubin, '--print-stats', '-j', str(j)],
                         check=True, capture_output=True, text=True).stdout
    m = SPEED.search(out)
    h = HOSTS.search(out)
    blocks = [int(x) for x in h.group(1).split()] if h else []
    cpus = [float(x) for x in h.group(2).split()] if h else []
    return float(m.group(1)), float(m.group(2)), blocks, cpus


def main():
    build = sys.argv[1]
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    tp_llc = os.path.join(build, 'bin', 'tp-llc')
    tp_sim = os.path.join(build, 'bin', 'tp-sim')
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, 'gemm.cubin')
        subprocess.run([tp_llc, '--gemm=%dx%dx%d' % (size, size, size),
                        '-filetype=obj', '-o', cubin], check=True)
        res = {1: [], n: []}
        for _ in range(pairs):
            for j in (1, n):
                before = load()
                wall, cpu, blocks, cpus = run(tp_sim, cubin, j)
                res[j].append((wall, cpu))
                print('-j %d: launch %.3f s wall, %.3f s CPU%s (load %.1f -> '
                      '%.1f)' % (j, wall, cpu,
                                 '; blocks %s, thread CPU %s s' % (
                                     '/'.join(map(str, blocks)),
                                     '/'.join('%.3f' % c for c in cpus))
                                 if blocks else '', before, load()))
        w1 = statistics.median(w for w, _ in res[1])
        c1 = statistics.median(c for _, c in res[1])
        wn = statistics.median(w for w, _ in res[n])
        cn = statistics.median(c for _, c in res[n])
        print('%d^3, median of %d: -j 1 %.3f s wall %.3f s CPU; -j %d %.3f s '
              'wall %.3f s CPU; wall speed-up %.2fx, CPU ratio %.2f' %
              (size, pairs, w1, c1, n, wn, cn, w1 / wn, cn / c1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
