#!/bin/bash
# End to end over issue 16's epilogue: for every layout pair x tile (at the
# tile's exact multiple BM x BN x 128) and A, B in f16 and bf16, tp-llc
# builds D = alpha A B + beta C + bias, ReLU kernels and tp-sim runs each
# with the schedule checked against the exact reference:
#   scale       --alpha=0.5 --beta=2                       (C random)
#   scale-D     the same with D (and C) in f16, bf16
#   beta0-nan   the same cubin run with --beta=0 and C all NaN: nothing
#               may leak into D
#   in-place    --alpha=2 --beta=0.5, C and D one buffer
#   bias-relu   --bias --relu with D in f32, f16, bf16
#   all         --alpha=0.5 --beta=2 --bias --relu
# Prints "<config> ok" or stops at the first failure with tp-sim's output.
#
#   e2e-epilogue.sh OUTDIR [TARGET [TILES]]
set -e
out=$1
mcpu=${2:-sm_86}
tiles=${3:-large small 128x64 256x128}
tile_dims() {
  case $1 in
    large) echo 128 128 ;; small) echo 64 64 ;;
    128x64) echo 128 64 ;; 256x128) echo 256 128 ;;
  esac
}
run() { # NAME CUBIN tp-sim-options...
  n=$1 c=$2
  shift 2
  if ! tp-sim $c --check-schedule --seed 7 "$@" > $out/$n.log 2>&1; then
    cat $out/$n.log
    echo "$n FAILED"
    exit 1
  fi
  grep -q '^hazards: 0$' $out/$n.log
  grep -q '^unwritten elements: 0, non-finite: 0$' $out/$n.log
  echo "$n ok"
}
for a in rows columns; do for b in rows columns; do
  for t in $tiles; do for ab in f16 bf16; do
    read bm bn < <(tile_dims $t)
    base=$a-$b-$t-$ab
    opts="-mcpu=$mcpu --gemm=${bm}x${bn}x128 --layout-a=$a --layout-b=$b --tile=$t --a-type=$ab --b-type=$ab"
    tp-llc $opts --alpha=0.5 --beta=2 -filetype=obj -o $out/$base-scale.cubin
    run $base-scale $out/$base-scale.cubin
    run $base-beta0-nan $out/$base-scale.cubin --beta=0 --c-input=nan
    run $base-in-place $out/$base-scale.cubin --alpha=2 --beta=0.5 --in-place
    for d in f16 bf16; do
      tp-llc $opts --alpha=0.5 --beta=2 --d-type=$d -filetype=obj -o $out/$base-scale-$d.cubin
      run $base-scale-$d $out/$base-scale-$d.cubin
      run $base-beta0-nan-$d $out/$base-scale-$d.cubin --beta=0 --c-input=nan
    done
    for d in f32 f16 bf16; do
      tp-llc $opts --d-type=$d --bias --relu -filetype=obj -o $out/$base-bias-relu-$d.cubin
      run $base-bias-relu-$d $out/$base-bias-relu-$d.cubin
    done
    tp-llc $opts --alpha=0.5 --beta=2 --bias --relu -filetype=obj -o $out/$base-all.cubin
    run $base-all $out/$base-all.cubin
  done; done
done; done
