#!/bin/bash
# End to end: for every layout x tile x residual configuration, tp-llc
# builds the GEMM for two shapes and tp-sim runs it with the schedule
# checked: (BM, 2 BN, 32 stages) -- one block column pair, no loop
# iteration -- and (2 BM, BN, 96 stages) -- the loop body runs twice
# (iterations = K / (32 stages) - 1).  Prints "<config> <shape> ok" or
# stops at the first failure with tp-sim's output.
#
#   e2e.sh OUTDIR [TARGET]    TARGET: sm_86 (default), sm_80, sm_89 or
#   sm_90; on sm_90, tp-llc -mcpu=sm_90 puts the parameters at
#   c[0x0][0x210], the descriptor at c[0x0][0x208] and the buffers after
#   the reserved 1 KiB, and encodes sm_90's BRA and cubin.  The kernels
#   are the fixed-shape ones (--fixed-shape, whatever tp-llc's default).
set -e
out=$1
mcpu=${2:-sm_86}
tile_dims() { # BM BN for a tile name (stages 4 for all four tiles)
  case $1 in
    large) echo 128 128 ;; small) echo 64 64 ;;
    128x64) echo 128 64 ;; 256x128) echo 256 128 ;;
  esac
}
for a in rows columns; do for b in rows columns; do
  for t in large small 128x64 256x128; do for r in "" --residual; do
    read bm bn < <(tile_dims $t)
    for shape in "${bm}x$((2 * bn))x128" "$((2 * bm))x${bn}x384"; do
      n=$a-$b-$t$r-$shape
      tp-llc -mcpu=$mcpu --gemm=$shape --layout-a=$a --layout-b=$b \
        --tile=$t $r --fixed-shape -filetype=obj -o $out/$n.cubin
      if ! tp-sim $out/$n.cubin --check-schedule --seed 3 > $out/$n.log 2>&1; then
        cat $out/$n.log
        echo "$n FAILED"
        exit 1
      fi
      grep -q '^hazards: 0$' $out/$n.log
      grep -q '^unwritten elements: 0, non-finite: 0$' $out/$n.log
      echo "$n ok"
    done
  done; done
done; done
