#!/usr/bin/env python3
"""insert_nop.py IN.sass OUT.sass: inserts `NOP {stall=1}` after the first
instruction line of a kernel-form .sass file and drops the last padding
`NOP {yield}`, so the code keeps its size (a multiple of 128 bytes) while
every instruction after the first moves 16 bytes on."""
import sys

lines = open(sys.argv[1]).read().split("\n")
first = next(i for i, l in enumerate(lines) if l.startswith("  /*"))
last_pad = max(i for i, l in enumerate(lines) if l.strip().endswith("NOP {yield}"))
out = lines[:first + 1] + ["  NOP {stall=1}"] + lines[first + 1:last_pad] + lines[last_pad + 1:]
open(sys.argv[2], "w").write("\n".join(out))
