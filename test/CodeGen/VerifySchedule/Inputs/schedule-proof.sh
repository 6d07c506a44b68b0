#!/bin/bash
# The schedule proof of every layout x tile x residual configuration: the
# checked program (tp-form-loop checked=1) passes tp-verify-schedule, and
# the mutation test over its loop body catches every mutant.  Prints
# "<config> stall=C/N wait=C/N ok" (C caught of N made); stops at the first
# failure.
#
#   schedule-proof.sh [TARGET [OPTION]]   TARGET: sm_86 (default) or sm_90,
#   whose latency model tp-compact-stalls and tp-verify-schedule then use;
#   OPTION: one more tp-llc option for every kernel (--fixed-shape=false).
set -e
set -o pipefail
mcpu=${1:-sm_86}
extra=${2:-}
for a in rows columns; do for b in rows columns; do
  for t in large small 128x64 256x128; do for r in "" --residual; do
    n=$a-$b-$t$r
    m=$(tp-llc -mcpu=$mcpu --gemm=512x512x512 --layout-a=$a --layout-b=$b --tile=$t $r $extra \
          -tp-form-loop-checked -stop-after=tp-form-loop |
        tp-opt -tp-verify-schedule='mutate=1' |
        sed -n '1s/.*mutations(stall=\([0-9]*\)\/\([0-9]*\) wait=\([0-9]*\)\/\([0-9]*\)).*/\1 \2 \3 \4/p')
    read sc sn wc wn <<< "$m"
    test -n "$sn" && test "$sn" -gt 0 && test "$wn" -gt 0
    test "$sc" = "$sn" && test "$wc" = "$wn"
    echo "$n stall=$sc/$sn wait=$wc/$wn ok"
  done; done
done; done
