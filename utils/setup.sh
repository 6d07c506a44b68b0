#!/usr/bin/env bash
# Installs what tp needs from Debian's packages, where the machine lacks it.
# The image normally has everything (LLVM 14 with static libraries, lit,
# GoogleTest, Google Benchmark, ninja, cmake); CUDA 13 is in /usr/local/cuda.
# numpy and pytest serve the Python module (python/tp).
set -euo pipefail
need=()
[ -f /usr/lib/llvm-14/lib/libLLVMTableGen.a ] || need+=(llvm-14-dev)
[ -x /usr/lib/llvm-14/bin/FileCheck ] || need+=(llvm-14-tools)
[ -f /usr/lib/llvm-14/build/utils/lit/lit.py ] || need+=(llvm-14-tools)
[ -f /usr/lib/x86_64-linux-gnu/libgtest.a ] || need+=(libgtest-dev)
[ -e /usr/lib/x86_64-linux-gnu/libbenchmark.so ] || need+=(libbenchmark-dev)
command -v ninja >/dev/null || need+=(ninja-build)
# tp-llc, tp-mc and tp-opt link fully static (start-up: docs/speed.md):
# LLVMSupport's zlib and terminfo as archives.
[ -f /usr/lib/x86_64-linux-gnu/libz.a ] || need+=(zlib1g-dev)
[ -f /usr/lib/x86_64-linux-gnu/libtinfo.a ] || need+=(libncurses-dev)
command -v cmake >/dev/null || need+=(cmake)
command -v python3 >/dev/null || need+=(python3)
# The Python module (python/tp) and its tests (test/Python), for Debian's
# python3 (the tests use the first python3 with both, see test/CMakeLists).
/usr/bin/python3 -c 'import numpy' 2>/dev/null || need+=(python3-numpy)
/usr/bin/python3 -c 'import pytest' 2>/dev/null || need+=(python3-pytest)
# test/Package checks tp.pc.
command -v pkg-config >/dev/null || need+=(pkgconf)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}"
fi
[ -x /usr/local/cuda/bin/ptxas ] || echo "setup: note: no /usr/local/cuda/bin/ptxas; the ptxas oracle tests will be skipped" >&2
exit 0
