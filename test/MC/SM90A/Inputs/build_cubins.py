#!/usr/bin/env python3
"""Builds DIR/NAME.cubin from DIR/NAME.ptx for each NAME with
`ptxas -arch=ARCH`.

usage: build_cubins.py PTXAS ARCH DIR NAME...
"""
import os
import subprocess
import sys

ptxas, arch, d = sys.argv[1:4]
for name in sys.argv[4:]:
    subprocess.check_call([ptxas, '-arch=' + arch, '-o',
                           os.path.join(d, name + '.cubin'),
                           os.path.join(d, name + '.ptx')])
