#!/bin/bash
# sim-all.sh OUTDIR TARGET [TP-LLC OPTIONS...]: for every layout x tile x
# residual configuration, tp-llc builds the GEMM with the OPTIONS (e.g.
# -tp-regalloc=plan=seed: the seed's register plan pre-assigned) at
# (2 BM, BN, 96 stages) -- the loop body runs twice -- and tp-sim runs it
# with the schedule checked.  Prints "<config> <registers> ok" or stops at
# the first failure with tp-sim's output.
set -e
out=$1
mcpu=$2
shift 2
tile_dims() {
  case $1 in
    large) echo 128 128 ;; small) echo 64 64 ;;
    128x64) echo 128 64 ;; 256x128) echo 256 128 ;;
  esac
}
for a in rows columns; do for b in rows columns; do
  for t in large small 128x64 256x128; do for r in "" --residual; do
    read bm bn < <(tile_dims $t)
    n=$a-$b-$t$r
    tp-llc -mcpu=$mcpu --gemm=$((2 * bm))x${bn}x384 --layout-a=$a \
      --layout-b=$b --tile=$t $r "$@" -stats \
      -filetype=obj -o $out/$n.cubin 2> $out/$n.stats
    if ! tp-sim $out/$n.cubin --check-schedule --seed 3 > $out/$n.log 2>&1; then
      cat $out/$n.log
      echo "$n FAILED"
      exit 1
    fi
    grep -q '^hazards: 0$' $out/$n.log
    grep -q '^unwritten elements: 0, non-finite: 0$' $out/$n.log
    echo "$n $(sed -n 's/^ *registers: *//p' $out/$n.stats) ok"
  done; done
done; done
