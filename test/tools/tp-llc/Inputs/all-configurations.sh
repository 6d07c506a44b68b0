#!/bin/bash
# Builds every layout x tile x residual configuration into $1 (asm and obj),
# disassembles each cubin and compares it with the listing; prints
# "<config> ok" per configuration, stops at the first failure.
set -e
out=$1
for a in rows columns; do for b in rows columns; do
  for t in large small 128x64 256x128; do for r in "" --residual; do
    n=$a-$b-$t$r
    tp-llc --gemm=512x512x512 --layout-a=$a --layout-b=$b --tile=$t $r -o $out/$n.s
    tp-llc --gemm=512x512x512 --layout-a=$a --layout-b=$b --tile=$t $r \
      -filetype=obj -o $out/$n.cubin
    test -f $out/$n.cubin.json
    tp-mc --disassemble --show-control $out/$n.cubin > $out/$n.dis
    grep -v '^// \^' $out/$n.s | diff - $out/$n.dis > /dev/null
    echo "$n ok"
  done; done
done; done
