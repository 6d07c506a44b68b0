#!/usr/bin/env bash
#===- utils/prove-variants.sh - Prove every kernel variant's schedule -----===#
#
# For every layout combination (A, B: rows|columns) x tile (large, small,
# 128x64, 256x128) x residual off/on x target (PROVE_TARGETS, default
# sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 sm_121), the fixed-shape kernel
# (--fixed-shape) at
# /work/baseline/gen.sh's shape (PROVE_SHAPE, default 512x512x1024):
#   1. tp-verify-schedule passes the checked program (tp-llc
#      -tp-form-loop-checked -stop-after=tp-form-loop | tp-opt
#      -tp-verify-schedule), under the target's latency model;
#   2. tp-sim runs the cubin with --check-schedule (the target's latency
#      model, read from the cubin's ELF flags) and the timing model over
#      the whole grid: the product matches the exact reference (PASS), 0
#      hazards, 0 timing hazards.  The cards (PROVE_CARD80 / 86 / 89 / 90):
#      a100 for sm_80, rtx3090 for sm_86, h100-sxm for sm_90; sm_89 has no
#      card of its own (PERF_FACTS.md cites no Ada card's numbers), so its
#      kernels are modelled on the rtx3090 (GA102: the same SM layout of
#      4 sub-partitions and tensor units), a stand-in, not an Ada figure.
#      Blackwell (sm_100, sm_120, sm_121) has no card (bench/cards, and
#      PERF_FACTS.md cites none; tp-sim refuses another architecture's
#      card), so its kernels are proved without the timing model.
# Prints one line per variant, "NAME ok TFLOP/s" (the modeled figure of
# that small launch), and "all N variants proved" at the end; exits 1 at
# the first variant that fails, after printing what failed.  The kernels
# are tp-llc's default (the run-time shape); PROVE_OPTS adds tp-llc
# options to every one (PROVE_OPTS=--fixed-shape: the fixed-shape kernels).
#
#   utils/prove-variants.sh [BUILD_BIN]     (default build/bin)
#===----------------------------------------------------------------------===#
set -u
B=${1:-build/bin}
shape=${PROVE_SHAPE:-512x512x1024}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for t in ${PROVE_TARGETS:-sm_80 sm_86 sm_89 sm_90 sm_100 sm_120 sm_121}; do
  case $t in
    sm_80) card=${PROVE_CARD80:-a100} ;;
    sm_86) card=${PROVE_CARD86:-rtx3090} ;;
    sm_89) card=${PROVE_CARD89:-rtx3090} ;;
    sm_90) card=${PROVE_CARD90:-h100-sxm} ;;
    sm_100 | sm_120 | sm_121) card="" ;;
    *) echo "prove-variants.sh: no card for target '$t'" >&2; exit 2 ;;
  esac
  for la in rows columns; do for lb in rows columns; do
    for tile in large small 128x64 256x128; do for r in 0 1; do
      name=$t-$la-$lb-$tile-$r; ra=""; [ $r = 1 ] && ra=--residual
      args=(-mcpu=$t --gemm=$shape --layout-a=$la --layout-b=$lb --tile=$tile $ra
            ${PROVE_OPTS:-})
      if ! "$B/tp-llc" "${args[@]}" -tp-form-loop-checked -stop-after=tp-form-loop \
             -o "$tmp/k.mir" || ! "$B/tp-opt" -tp-verify-schedule "$tmp/k.mir" \
             -o /dev/null 2> "$tmp/verify.txt"; then
        echo "$name FAILED: tp-verify-schedule"; cat "$tmp/verify.txt"; exit 1
      fi
      if ! "$B/tp-llc" "${args[@]}" -filetype=obj -o "$tmp/k.cubin"; then
        echo "$name FAILED: tp-llc"; exit 1
      fi
      timing=(); [ -n "$card" ] && timing=(--timing=$card)
      if ! "$B/tp-sim" "$tmp/k.cubin" --check-schedule "${timing[@]}" \
             > "$tmp/sim.txt" 2>&1 ||
         ! grep -q '^PASS$' "$tmp/sim.txt" ||
         ! grep -q '^hazards: 0$' "$tmp/sim.txt" ||
         { [ -n "$card" ] && ! grep -q 'timing hazards: 0$' "$tmp/sim.txt"; }; then
        echo "$name FAILED: tp-sim --check-schedule ${timing[*]}"
        cat "$tmp/sim.txt"; exit 1
      fi
      tf=$(sed -n 's/.*GEMM: \([0-9.]*\) TFLOP\/s.*/\1/p' "$tmp/sim.txt")
      [ -n "$card" ] || tf="(no card)"
      echo "$name ok $tf"
      n=$((n + 1))
    done; done
  done; done
done
echo "all $n variants proved"
