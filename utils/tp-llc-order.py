#!/usr/bin/env python3
#===- utils/tp-llc-order.py - tp-llc's hot functions, for the link --------===#
#
# Writes tools/tp-llc/tp-llc.order: the (mangled) functions that tp-llc runs
# for the default kernel, --tile=256x128 and --fixed-shape, with the cubin
# and with the listing, one a line, sorted.  tp-llc's link (lld's
# --symbol-ordering-file, tools/tp-llc/CMakeLists.txt) places them first
# and together, so the code a run executes spans ~1.4 MB of the 3 MB text
# instead of being spread over all of it: fewer text pages to fault in
# (docs/speed.md, "The pipeline's page faults and allocation").
#
#   utils/tp-llc-order.py BUILD_DIR [OUT]
#
# The list only moves code: a function it names that no longer exists is
# ignored, and one it lacks is linked after the listed ones, so a stale
# list costs page faults, never correctness.  Regenerate it when the code a
# run executes changes much.  Needs valgrind (callgrind).  Not a test.
#===----------------------------------------------------------------------===#
import os
import re
import subprocess
import sys
import tempfile

RUNS = [
    ['-filetype=obj'],
    ['-filetype=asm'],
    ['--tile=256x128', '-filetype=obj'],
    ['--tile=256x128', '-filetype=asm'],
    ['--fixed-shape', '-filetype=obj'],
    ['--fixed-shape', '-filetype=asm'],
]
# A function's name where callgrind's output file defines it: "fn=(ID) NAME"
# or "cfn=(ID) NAME" (later uses give the ID alone).
NAME = re.compile(r'^c?fn=\(\d+\) (.+)$')


def executed(tp_llc, args, tmp):
    out = os.path.join(tmp, 'callgrind.out')
    subprocess.run(['valgrind', '--tool=callgrind', '--demangle=no',
                    '--callgrind-out-file=' + out, tp_llc] + args +
                   ['-o', os.path.join(tmp, 'out')],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    names = set()
    with open(out) as f:
        for line in f:
            m = NAME.match(line.rstrip('\n'))
            if m:
                # callgrind marks recursion levels as NAME'2.
                names.add(m.group(1).split("'")[0])
    return names


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit('usage: utils/tp-llc-order.py BUILD_DIR [OUT]')
    tp_llc = os.path.join(sys.argv[1], 'bin', 'tp-llc')
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'tools', 'tp-llc',
        'tp-llc.order')
    names = set()
    with tempfile.TemporaryDirectory() as tmp:
        for args in RUNS:
            names |= executed(tp_llc, args, tmp)
    # Only names the executable defines as functions: callgrind also names
    # the kernel's and valgrind's own code ("0x...", "(below main)").
    nm = subprocess.run(['nm', '--defined-only', tp_llc], check=True,
                        capture_output=True, text=True).stdout
    functions = {l.split()[2] for l in nm.splitlines()
                 if len(l.split()) == 3 and l.split()[1] in 'tTwWiI'}
    with open(out, 'w') as f:
        for name in sorted(names & functions):
            f.write(name + '\n')
    print('%s: %d functions' % (out, len(names & functions)))


if __name__ == '__main__':
    main()
