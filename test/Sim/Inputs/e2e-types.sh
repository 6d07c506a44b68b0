#!/bin/bash
# End to end over issue 16's element types: for every layout pair x tile
# (large, small, 128x64, 256x128) x A and B in {f16, bf16} x D in {f32,
# f16, bf16}, tp-llc builds the GEMM at the tile's exact multiple
# (BM x BN x 128: one block, no loop iteration) and tp-sim runs it with the
# schedule checked against the exact reference (rounded once to D's type).
# Prints "<config> ok" or stops at the first failure with tp-sim's output.
#
#   e2e-types.sh OUTDIR [TARGET [TILES]]    TARGET: sm_86 (default), sm_90
set -e
out=$1
mcpu=${2:-sm_86}
tiles=${3:-large small 128x64 256x128}
tile_dims() { # BM BN for a tile name
  case $1 in
    large) echo 128 128 ;; small) echo 64 64 ;;
    128x64) echo 128 64 ;; 256x128) echo 256 128 ;;
  esac
}
for a in rows columns; do for b in rows columns; do
  for t in $tiles; do for ab in f16 bf16; do for d in f32 f16 bf16; do
    read bm bn < <(tile_dims $t)
    n=$a-$b-$t-$ab-$d
    tp-llc -mcpu=$mcpu --gemm=${bm}x${bn}x128 --layout-a=$a --layout-b=$b \
      --tile=$t --a-type=$ab --b-type=$ab --d-type=$d -filetype=obj \
      -o $out/$n.cubin
    if ! tp-sim $out/$n.cubin --check-schedule --seed 5 > $out/$n.log 2>&1; then
      cat $out/$n.log
      echo "$n FAILED"
      exit 1
    fi
    grep -q '^hazards: 0$' $out/$n.log
    grep -q '^unwritten elements: 0, non-finite: 0$' $out/$n.log
    echo "$n ok"
  done; done; done
done; done
