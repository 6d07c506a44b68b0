"""For every pass tp-opt --help lists: flag = file = test folder = DEBUG_TYPE.

tp-<words> is implemented in lib/<Layer>/<Words>.cpp (the words joined,
in any case: CompactStalls.cpp, RegAlloc.cpp), which defines DEBUG_TYPE as
the flag and the class <Words>Pass, and is tested in test/<Layer>/<Words>/.  Prints one line per pass, or the
mismatches (exit 1).
"""
import os
import re
import subprocess
import sys

src, tp_opt = sys.argv[1], sys.argv[2]
help_text = subprocess.run([tp_opt, "--help"], stdout=subprocess.PIPE,
                           universal_newlines=True, check=True).stdout
flags = re.findall(r"^    -(tp-[a-z-]+) ", help_text, re.M)
errors = []
for flag in flags:
    # The words of the flag, joined, compared without case: tp-regalloc
    # may live in RegAlloc.cpp.
    key = flag[len("tp-"):].replace("-", "").lower()
    found = []
    for layer in sorted(os.listdir(os.path.join(src, "lib"))):
        d = os.path.join(src, "lib", layer)
        if os.path.isdir(d):
            found += [(layer, f[:-4]) for f in sorted(os.listdir(d))
                      if f.endswith(".cpp") and f[:-4].lower() == key]
    if len(found) != 1:
        errors.append("%s: expected one lib/*/<%s>.cpp, found %s" %
                      (flag, key, found))
        continue
    layer, camel = found[0]
    text = open(os.path.join(src, "lib", layer, camel + ".cpp")).read()
    if '#define DEBUG_TYPE "%s"' % flag not in text:
        errors.append("%s: lib/%s/%s.cpp does not define DEBUG_TYPE \"%s\"" %
                      (flag, layer, camel, flag))
    if not re.search(r"class %sPass\b" % camel, text):
        errors.append("%s: lib/%s/%s.cpp does not hold class %sPass" %
                      (flag, layer, camel, camel))
    if not os.path.isdir(os.path.join(src, "test", layer, camel)):
        errors.append("%s: no test folder test/%s/%s" % (flag, layer, camel))
    print("%s lib/%s/%s.cpp test/%s/%s" % (flag, layer, camel, layer, camel))
for e in errors:
    print("error: " + e)
sys.exit(1 if errors or not flags else 0)
