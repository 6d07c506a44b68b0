#!/usr/bin/env python3
"""Build the ptxas corpus: each PTX file, for each target of TARGETS (a comma
separated list), with its .target line rewritten to that target, compiled by
`ptxas -arch=TARGET` into OUTDIR/NAME_TARGET.cubin.

usage: build_corpus.py PTXAS TARGETS OUTDIR FILE.ptx...
"""
import os
import re
import subprocess
import sys


def main():
    ptxas, targets, outdir, files = (sys.argv[1], sys.argv[2].split(','),
                                     sys.argv[3], sys.argv[4:])
    os.makedirs(outdir, exist_ok=True)
    for target, ptx in ((t, p) for t in targets for p in files):
        base = os.path.join(outdir, os.path.basename(ptx)[:-4] + '_' + target)
        src, n = re.subn(r'^\.target\s+sm_\w+', '.target ' + target,
                         open(ptx).read(), count=1, flags=re.M)
        if n != 1:
            sys.exit(ptx + ': no .target line')
        open(base + '.ptx', 'w').write(src)
        subprocess.check_call([ptxas, '-arch=' + target, '-o',
                               base + '.cubin', base + '.ptx'])


if __name__ == '__main__':
    main()
