"""Checks that the first paragraph of each tool's --help overview names
every target td/Targets.td defines (a `def ... : ...Target<"sm_NN", ...>`).

usage: check-help-targets.py TARGETS.td TOOL...
Prints one line per tool; exit 1 if a target is missing."""
import re
import subprocess
import sys

td, tools = sys.argv[1], sys.argv[2:]
with open(td) as f:
    targets = re.findall(r'^def \w+\s*:\s*\w*Target<"(sm_\d+)"', f.read(),
                         re.M)
if not targets:
    sys.exit("check-help-targets: no target found in " + td)
status = 0
for tool in tools:
    text = subprocess.run([tool, "--help"], stdout=subprocess.PIPE,
                          universal_newlines=True, check=True).stdout
    overview = text.split("\n\n", 1)[0]
    names = set(re.findall(r"\bsm_\d+\b", overview))
    missing = [t for t in targets if t not in names]
    if missing:
        status = 1
        print("%s: the overview lacks %s" % (tool, ", ".join(missing)))
    else:
        print("%s: %s" % (tool, " ".join(targets)))
sys.exit(status)
