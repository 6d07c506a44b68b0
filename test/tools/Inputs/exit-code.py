"""exit-code.py STATUS OUTPUT CMD...: runs CMD, fails unless it exits with
STATUS and (when OUTPUT is not '-' and STATUS is nonzero) OUTPUT does not
exist afterwards."""
import os
import subprocess
import sys

want, output, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
got = subprocess.call(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if got != want:
    sys.exit("exit status %d, expected %d: %s" % (got, want, " ".join(cmd)))
if output != "-" and want != 0 and os.path.exists(output):
    sys.exit("output %s was written" % output)
