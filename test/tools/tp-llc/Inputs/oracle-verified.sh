#!/bin/bash
# For sm_86 and sm_90, every layout x tile (residual on and off): builds the
# listing into $1 and assembles it with `tp-mc --assemble --fatal-warnings`,
# which fails on any instruction of a form no oracle word reaches.  Prints
# "<cpu> <config> ok" per configuration, stops at the first failure.
set -e
out=$1
for cpu in sm_86 sm_90; do
  for a in rows columns; do for b in rows columns; do
    for t in large small 128x64 256x128; do for r in "" --residual; do
      n=$cpu-$a-$b-$t$r
      tp-llc -mcpu=$cpu --gemm=512x512x512 --layout-a=$a --layout-b=$b \
        --tile=$t $r -o $out/$n.s
      tp-mc -mcpu=$cpu --assemble --fatal-warnings $out/$n.s -o /dev/null
      echo "$cpu $a-$b-$t$r ok"
    done; done
  done; done
done
