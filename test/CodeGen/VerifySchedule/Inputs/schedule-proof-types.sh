#!/bin/bash
# The schedule proof of issue 16's type variants: for every layout x tile x
# A, B in {f16, bf16} x D in {f32, f16, bf16} (the f16 x f16 -> f32 ones are
# schedule-proof.sh's), the checked program passes tp-verify-schedule and
# the mutation test over its loop body catches every mutant.  Prints
# "<config> stall=C/N wait=C/N ok"; stops at the first failure.
#
# The epilogue variants (alpha/beta; bias + ReLU; all three) follow, for
# A and B in f16 and bf16.
#
#   schedule-proof-types.sh [TARGET [OPTION]]   TARGET: sm_86 (default) or
#   sm_90; OPTION: one more tp-llc option for every kernel
#   (--fixed-shape=false: the run-time shape's guarded epilogue).
set -e
set -o pipefail
mcpu=${1:-sm_86}
extra=${2:-}
variants() {
  for ab in f16 bf16; do for d in f32 f16 bf16; do
    test $ab-$d = f16-f32 || echo "$ab-$d --a-type=$ab --b-type=$ab --d-type=$d"
  done; done
  for ab in f16 bf16; do
    t="--a-type=$ab --b-type=$ab"
    echo "$ab-scale $t --alpha=0.5 --beta=2"
    echo "$ab-scale-bf16 $t --alpha=0.5 --beta=2 --d-type=bf16"
    echo "$ab-bias-relu $t --bias --relu"
    echo "$ab-all $t --alpha=0.5 --beta=2 --bias --relu"
  done
}
for a in rows columns; do for b in rows columns; do
  for t in large small 128x64 256x128; do
    variants | while read v opts; do
      n=$a-$b-$t-$v
      m=$(tp-llc -mcpu=$mcpu --gemm=512x512x512 --layout-a=$a --layout-b=$b \
            --tile=$t $opts $extra \
            -tp-form-loop-checked -stop-after=tp-form-loop |
          tp-opt -tp-verify-schedule='mutate=1' |
          sed -n '1s/.*mutations(stall=\([0-9]*\)\/\([0-9]*\) wait=\([0-9]*\)\/\([0-9]*\)).*/\1 \2 \3 \4/p')
      read sc sn wc wn <<< "$m"
      test -n "$sn" && test "$sn" -gt 0 && test "$wn" -gt 0
      test "$sc" = "$sn" && test "$wc" = "$wn"
      echo "$n stall=$sc/$sn wait=$wc/$wn ok"
    done
  done
done; done
