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
# NVIDIA's disassembler, the oracle for every word on sm_80..sm_90
# (docs/nvdisasm.md): nvdisasm and cuobjdump 11.8 from Debian bookworm's
# non-free nvidia-cuda-toolkit, downloaded through a private sources list
# (the machine's apt configuration is not changed) and extracted, not
# installed.  They need only libc.  TP_NVDISASM_DIR overrides the folder.
nvd=${TP_NVDISASM_DIR:-/opt/tp-nvdisasm-11.8}
if [ ! -x "$nvd/bin/nvdisasm" ] || [ ! -x "$nvd/bin/cuobjdump" ]; then
  echo "setup: fetching nvdisasm 11.8 into $nvd"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial"
  echo 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm non-free' >"$tmp/sources.list"
  apt_opts=(-o "Dir::Etc::sourcelist=$tmp/sources.list" -o Dir::Etc::sourceparts=-
            -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache"
            -o APT::Sandbox::User=root)
  if apt-get -qq "${apt_opts[@]}" update &&
     (cd "$tmp" && apt-get -qq "${apt_opts[@]}" download nvidia-cuda-toolkit) &&
     mkdir -p "$tmp/x" &&
     dpkg-deb --fsys-tarfile "$tmp"/nvidia-cuda-toolkit_*.deb |
       tar -x -C "$tmp/x" ./usr/bin/nvdisasm ./usr/bin/cuobjdump &&
     "$tmp/x/usr/bin/nvdisasm" --version | grep -q 'release 11.8'; then
    mkdir -p "$nvd/bin"
    mv "$tmp/x/usr/bin/nvdisasm" "$tmp/x/usr/bin/cuobjdump" "$nvd/bin/"
  else
    echo "setup: note: could not fetch nvdisasm 11.8; the nvdisasm oracle tests will be unsupported" >&2
  fi
fi
[ -x /usr/local/cuda/bin/ptxas ] || echo "setup: note: no /usr/local/cuda/bin/ptxas; the ptxas oracle tests will be skipped" >&2
exit 0
