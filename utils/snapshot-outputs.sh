#!/usr/bin/env bash
#===- utils/snapshot-outputs.sh - tp-llc's outputs over many variants -----===#
#
# The byte-identity check for work that must not change what tp-llc writes
# (speed work, refactors): the listing (.sass), cubin and manifest of every
# layout x tile x residual on sm_86 and sm_90 with the run-time and the
# fixed shape, the default kernel on every target, and type, epilogue,
# batch and odd-shape variants (432 files).  Snapshot before a change,
# again after, and diff:
#
#   utils/snapshot-outputs.sh build/bin /tmp/before
#   ... change, rebuild ...
#   utils/snapshot-outputs.sh build/bin /tmp/after && diff -r /tmp/before /tmp/after
#
# OUTDIR is emptied first.  Not a test (the lit tests check what the outputs
# mean; this checks that they did not move).
#===----------------------------------------------------------------------===#
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_BIN OUTDIR" >&2
  exit 2
fi
B=$1
O=$2
rm -rf "$O"
mkdir -p "$O"
run() {
  local n=$1
  shift
  "$B/tp-llc" "$@" -filetype=asm -o "$O/$n.sass"
  "$B/tp-llc" "$@" -filetype=obj -o "$O/$n.cubin"
}
for t in sm_86 sm_90; do
  for la in rows columns; do for lb in rows columns; do
    for tile in large small 128x64 256x128; do for r in 0 1; do
      ra=()
      [ $r = 1 ] && ra=(--residual)
      common=(-mcpu=$t --gemm=512x512x1024 --layout-a=$la --layout-b=$lb
              --tile=$tile "${ra[@]}")
      run $t-$la-$lb-$tile-$r-rt "${common[@]}"
      run $t-$la-$lb-$tile-$r-fx "${common[@]}" --fixed-shape
    done; done
  done; done
done
for t in sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 sm_121; do
  run default-$t -mcpu=$t
done
run bf16 --a-type=bf16 --b-type=bf16
run df16 --d-type=f16
run dbf16 --a-type=bf16 --b-type=bf16 --d-type=bf16
run epi --alpha=2 --beta=0.5 --bias --relu
run epi-res --alpha=1.5 --beta=1 --d-type=f16
run batch --batch=4 --gemm=256x256x512
run batch90 --batch=3 --gemm=256x256x512 -mcpu=sm_90 --tile=256x128
run odd --gemm=1000x999x77
run small-fx --gemm=128x128x128 --fixed-shape --tile=small
