#!/bin/bash
# all-selected.sh: tp-select's output with its virtual registers assigned
# (tp-llc -stop-after=tp-regalloc: tp-interleave only reorders) for every
# layout x tile x residual configuration, one after the other (the
# fixed-shape kernels, --fixed-shape: their exact text).
set -e
for a in rows columns; do for b in rows columns; do
  for t in large small 128x64 256x128; do for r in "" --residual; do
    tp-llc --fixed-shape --gemm=512x512x512 --layout-a=$a --layout-b=$b --tile=$t $r \
      -stop-after=tp-regalloc -o -
  done; done
done; done
