#!/bin/bash
# sm_90: builds every layout x tile x residual configuration into $1 (asm
# and obj) with -mcpu=sm_90, disassembles each cubin with the sm_90 tables
# and compares it with the listing; checks the cubin is an sm_90 one and
# the manifest says sm_90.  Prints "<config> ok" per configuration, stops
# at the first failure.
set -e
out=$1
for a in rows columns; do for b in rows columns; do
  for t in large small 128x64 256x128; do for r in "" --residual; do
    n=$a-$b-$t$r
    tp-llc -mcpu=sm_90 --gemm=512x512x512 --layout-a=$a --layout-b=$b \
      --tile=$t $r -o $out/$n.s
    tp-llc -mcpu=sm_90 --gemm=512x512x512 --layout-a=$a --layout-b=$b \
      --tile=$t $r -filetype=obj -o $out/$n.cubin
    grep -q '"target": *"sm_90"' $out/$n.cubin.json
    tp-mc --dump-cubin $out/$n.cubin | grep -q 'flags: 0x06005a04 (sm_90)'
    tp-mc -mcpu=sm_90 --disassemble --show-control $out/$n.cubin > $out/$n.dis
    grep -v '^// \^' $out/$n.s | diff - $out/$n.dis > /dev/null
    echo "$n ok"
  done; done
done; done
