#!/bin/bash
# For every layout x tile x residual configuration: the checked program
# (loop unrolled twice, no branch) after tp-compact-stalls passes
# tp-verify-schedule, and its machine IR prints back as it was read.
set -e
out=$1
for a in rows columns; do for b in rows columns; do
  for t in large small 128x64 256x128; do for r in "" --residual; do
    n=$a-$b-$t$r
    tp-llc --gemm=512x512x1024 --layout-a=$a --layout-b=$b --tile=$t $r \
      -tp-form-loop-checked -stop-after=tp-form-loop -o $out/$n.mir
    grep -q 'piece body.1' $out/$n.mir
    ! grep -q 'BRA ^loop' $out/$n.mir
    tp-opt -tp-verify-schedule $out/$n.mir -o $out/$n.verified.mir
    tp-opt $out/$n.mir | diff - $out/$n.mir > /dev/null
    echo "$n verified"
  done; done
done; done
