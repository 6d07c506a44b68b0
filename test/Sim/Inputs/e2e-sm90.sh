#!/bin/bash
# End to end on sm_90: for every layout x tile x residual configuration,
# tp-llc -mcpu=sm_90 builds the GEMM (parameters at c[0x0][0x210], the
# descriptor at c[0x0][0x208], buffers after the reserved 1 KiB, sm_90
# BRA encodings, ptxas's sm_90 cubin) for the small shape of e2e.sh (one
# block column pair) and, with a second shape, the loop body running twice;
# tp-sim runs it with the schedule checked and compares C with the
# double-precision reference.  Prints "<config> <shape> ok" or stops at the
# first failure with tp-sim's output.
set -e
out=$1
tile_dims() {
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
      tp-llc -mcpu=sm_90 --gemm=$shape --layout-a=$a --layout-b=$b \
        --tile=$t $r -filetype=obj -o $out/$n.cubin
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
