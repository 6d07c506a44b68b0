#!/usr/bin/env python3
"""The -time-passes pipeline total of tp-llc in two configurations, run
interleaved (default kernel, --tile=256x128), RUNS times each (default 60): the
median, quartiles and minimum of the report's `Pipeline: N us wall` line.
Interleaving shows how much one configuration's median moves with the
machine's state, which a median of 15 back-to-back runs hides.  Not a test.

  bench/pipeline_interleaved.py BUILD_DIR [RUNS]
"""
import os
import statistics
import sys
import tempfile

from process_time import pipeline_once
CONFIGS = {
    'default': [],
    '256x128': ['--tile=256x128'],
}


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    tp_llc = os.path.join(sys.argv[1], 'bin', 'tp-llc')
    runs = int(sys.argv[2]) if len(sys.argv) == 3 else 60
    walls = {k: [] for k in CONFIGS}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            for name, extra in CONFIGS.items():
                wall, _, _ = pipeline_once(tp_llc, extra, tmp)
                walls[name].append(round(wall * 1e6))
    print('load average %s' % open('/proc/loadavg').read().split()[0])
    for name, v in walls.items():
        q = statistics.quantiles(v, n=4)
        print('%-22s median %5d us, quartiles %5d-%5d, min %5d (%d runs)' %
              (name, statistics.median(v), q[0], q[2], min(v), len(v)))


if __name__ == '__main__':
    main()
