"""Checks what test/Sim/cb0-layout.ptx's kernels stored against the launch.

  cb0check.py launch OUT IDX GRID BLOCK   ntid, nctaid, nsmid 1, gridid 1,
                                          every thread's linear index
  cb0check.py stack OUT THREADS N         out[t] = t * 16 + N
  cb0check.py dynsmem OUT BYTES           every block stored BYTES
Exit 1 with the first difference.
"""
import struct
import sys


def fail(msg):
    print("cb0check: " + msg)
    sys.exit(1)


def dims(s):
    return [int(v) for v in s.split(",")]


def words(path):
    data = open(path, "rb").read()
    return struct.unpack("<%dI" % (len(data) // 4), data)


def main(argv):
    mode = argv[1]
    if mode == "launch":
        out = words(argv[2])
        idx = words(argv[3])
        grid, block = dims(argv[4]), dims(argv[5])
        expect = {"ntid": tuple(block), "nctaid": tuple(grid),
                  "nsmid": (1,), "gridid": (1, 0)}
        found = {"ntid": out[0:3], "nctaid": out[3:6], "nsmid": out[6:7],
                 "gridid": out[8:10]}
        for k in expect:
            if expect[k] != tuple(found[k]):
                fail("%s: expected %s, found %s" % (k, expect[k], found[k]))
        n = grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2]
        if len(idx) < n:
            fail("index buffer of %d words, %d threads" % (len(idx), n))
        for t in range(n):
            if idx[t] != t:
                fail("thread %d stored index %d" % (t, idx[t]))
    elif mode == "stack":
        out = words(argv[2])
        threads, n = int(argv[3]), int(argv[4])
        for t in range(threads):
            if out[t] != t * 16 + n:
                fail("thread %d: expected %d, found %d" % (t, t * 16 + n, out[t]))
    elif mode == "dynsmem":
        out = words(argv[2])
        for b, v in enumerate(out):
            if v != int(argv[3]):
                fail("block %d: expected %s, found %d" % (b, argv[3], v))
    else:
        fail("unknown mode " + mode)
    print("cb0check: ok")


main(sys.argv)
