"""compare-faults.py HUGE SMALL [RATIO]: -time-passes reports of the same
run with and without tp-llc's huge-page heap; exits 1 unless the pipeline's
minor faults with it are under 1/RATIO (default 3) of those without it."""
import re
import sys


def faults(path):
    with open(path) as f:
        m = re.search(r'Pipeline: .* ([0-9]+) minor faults', f.read())
    if not m:
        sys.exit('%s: no "Pipeline: ... minor faults" line' % path)
    return int(m.group(1))


huge, small = faults(sys.argv[1]), faults(sys.argv[2])
ratio = int(sys.argv[3]) if len(sys.argv) > 3 else 3
print('pipeline minor faults: %d with the huge-page heap, %d without' %
      (huge, small))
sys.exit(0 if ratio * huge < small else 1)
