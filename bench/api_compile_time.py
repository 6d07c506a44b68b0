#!/usr/bin/env python3
"""Compile time through the library against tp-llc's process time.

    bench/api_compile_time.py BUILD [REPEATS]

For each kernel below, the median wall time of REPEATS (default 11) calls
of tp.gemm(...) in this process (the Python module over libtp.so: the
compile only, nothing written) and of REPEATS runs of the `tp-llc
-filetype=obj` process with the same options (which also starts, parses
options and writes the cubin and its manifest).  Prints a Markdown table
(docs/library.md, "Compile time").  Never run by the test suite: timings
depend on the machine's load.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

KERNELS = [
    ("default example, 4096^3, large tile",
     dict(m=4096, n=4096, k=4096, tile="large"),
     ["--gemm=4096x4096x4096", "--tile=large"]),
    ("256x256x512, auto tile",
     dict(m=256, n=256, k=512),
     ["--gemm=256x256x512"]),
    ("run-time shape, bf16 -> f16, alpha/beta, bias, ReLU, batch 3",
     dict(m=256, n=256, k=512, runtime_shape=True, a_type="bf16",
          b_type="bf16", d_type="f16", alpha=0.5, beta=2.0, bias=True,
          relu=True, batch=3),
     ["--gemm=256x256x512", "--fixed-shape=false", "--a-type=bf16",
      "--b-type=bf16", "--d-type=f16", "--alpha=0.5", "--beta=2", "--bias",
      "--relu", "--batch=3"]),
]


def median_ms(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    sys.path.insert(0, os.path.join(build, "python"))
    import tp
    llc = os.path.join(build, "bin", "tp-llc")
    out = tempfile.mkdtemp(prefix="tp-compile-time-")
    print("| Kernel | `tp.gemm` | `tp-llc` process |")
    print("|---|---|---|")
    for name, options, flags in KERNELS:
        # A fixed shape unless the kernel says otherwise, whatever the
        # defaults are.
        if "runtime_shape" not in options:
            options = dict(options, runtime_shape=False)
            flags = flags + ["--fixed-shape"]
        tp.gemm(**options)  # warm: the library's first call
        api = median_ms(lambda: tp.gemm(**options), repeats)
        cubin = os.path.join(out, "k.cubin")
        cmd = [llc] + flags + ["-filetype=obj", "-o", cubin]
        proc = median_ms(lambda: subprocess.run(cmd, check=True), repeats)
        print("| %s | %.1f ms | %.1f ms |" % (name, api, proc))
    load = os.getloadavg()[0]
    print("\nmedian of %d, wall time, load average %.1f" % (repeats, load))


if __name__ == "__main__":
    main()
