"""closed-pipe.py CMD...: runs CMD with standard output a pipe whose read
end is already closed; prints CMD's exit status and its standard error."""
import os
import subprocess
import sys

r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
os.close(w)
sys.stdout.write(p.stderr.decode("utf-8", "replace"))
print("exit=%d" % p.returncode)
