#!/usr/bin/env bash
# Builds the libFuzzer targets of lib/Object with clang (ASan + UBSan) in
# BUILD_DIR (default build-fuzz) and runs each for SECONDS (default 60) on a
# seed corpus: every cubin in shared/reference/cubin, the .sass text of
# each in both forms (tp-fuzz-seed), and test/Object/Inputs/*.sass.  Exit status 0 = no crash found;
# crash inputs are left in BUILD_DIR/fuzz-artifacts/.
#
#   utils/fuzz-cubin.sh [BUILD_DIR] [SECONDS]
#   utils/fuzz-cubin.sh --run-only BUILD_DIR SECONDS   (used by `ninja fuzz-object`)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
RUN_ONLY=0
if [[ "${1:-}" == "--run-only" ]]; then RUN_ONLY=1; shift; fi
BUILD=${1:-$SRC/build-fuzz}
SECONDS_EACH=${2:-60}
SHARED=${TP_SHARED_DIR:-$SRC/../shared}

if [[ $RUN_ONLY == 0 ]]; then
  cmake -G Ninja -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DTP_ENABLE_FUZZERS=ON -DTP_SHARED_DIR="$SHARED" >/dev/null
  ninja -C "$BUILD" -j"${JOBS:-2}" tp-fuzz-cubin tp-fuzz-sass tp-fuzz-seed
fi

CORPUS=$BUILD/fuzz-corpus
ART=$BUILD/fuzz-artifacts
mkdir -p "$CORPUS/cubin" "$CORPUS/sass" "$ART"
cp "$SHARED"/reference/cubin/*.cubin "$CORPUS/cubin/" 2>/dev/null || true
cp "$SRC"/test/Object/Inputs/*.sass "$CORPUS/sass/" 2>/dev/null || true
# The .sass text (kernel and raw form) of every seed cubin.
"$BUILD/bin/tp-fuzz-seed" "$CORPUS/sass" "$CORPUS"/cubin/*.cubin
status=0
for f in cubin sass; do
  echo "== tp-fuzz-$f for ${SECONDS_EACH}s"
  # A fixed seed and at most 1500 inputs: the run is the same sequence on
  # every machine (a slower one stops earlier in it, at SECONDS).
  "$BUILD/bin/tp-fuzz-$f" "$CORPUS/$f" -max_total_time="$SECONDS_EACH" \
    -seed=1 -runs=1500 \
    -artifact_prefix="$ART/$f-" -print_final_stats=1 -rss_limit_mb=2048 \
    2>&1 | tail -n 12 || status=1
done
exit $status
