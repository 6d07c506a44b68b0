#!/usr/bin/env python3
"""sass_roundtrip.py OUTDIR [--ptxas PTXAS [--arch sm_NN] [--reloc]] FILE...:
for each cubin (or PTX file, built first with PTXAS -arch=sm_86 -- with
--reloc as a relocatable object, ptxas -c --, or for --arch with
its first .target line rewritten to that target, and for sm_100 and later
its .version raised to 8.8), runs
  tp-mc --disassemble X.cubin -o X.sass
  tp-mc --assemble -filetype=obj X.sass -o Y.cubin
and prints "NAME: identical" when Y equals X byte for byte, else
"NAME: FAILED (...)"."""
import os
import re
import subprocess
import sys

args = sys.argv[1:]
out = args.pop(0)
ptxas = None
if args and args[0] == "--ptxas":
    args.pop(0)
    ptxas = args.pop(0)
arch = None
if args and args[0] == "--arch":
    args.pop(0)
    arch = args.pop(0)
reloc = False
if args and args[0] == "--reloc":
    args.pop(0)
    reloc = True
for f in args:
    name = os.path.splitext(os.path.basename(f))[0]
    src = f
    try:
        if f.endswith(".ptx"):
            src = os.path.join(out, name + ".in.cubin")
            ptx = f
            if arch:
                ptx = os.path.join(out, name + "." + arch + ".ptx")
                text = re.sub(r"\.target\s+sm_\w+", ".target " + arch,
                              open(f).read(), count=1)
                # Blackwell targets need PTX ISA 8.6 or later.
                if int(re.sub(r"\D", "", arch)) >= 100:
                    text = re.sub(r"\.version\s+[\d.]+", ".version 8.8", text,
                                  count=1)
                open(ptx, "w").write(text)
            subprocess.run([ptxas, "-arch=" + (arch or "sm_86")] +
                           (["-c"] if reloc else []) + ["-o", src, ptx],
                           check=True)
        sass = os.path.join(out, name + ".sass")
        dst = os.path.join(out, name + ".out.cubin")
        subprocess.run(["tp-mc", "--disassemble", src, "-o", sass], check=True)
        subprocess.run(["tp-mc", "--assemble", "-filetype=obj", sass, "-o",
                        dst], check=True)
        same = open(src, "rb").read() == open(dst, "rb").read()
        print("%s: %s" % (name, "identical" if same else "FAILED (differs)"))
    except subprocess.CalledProcessError as e:
        print("%s: FAILED (%s)" % (name, e))
