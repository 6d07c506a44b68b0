#!/usr/bin/env bash
#===- utils/gpu-check.sh - Verify, measure and time tp's kernels on a GPU -===#
#
# Issues 7 and 15: one prepared command for a GPU machine.  Two steps:
#
#   utils/gpu-check.sh prepare DIR    on the CPU machine, after `ninja`:
#       tp-llc builds every variant (4 layouts x 4 tiles x residual on/off,
#       at each shape of GPU_CHECK_SHAPES) and, at each size of
#       GPU_CHECK_SIZES, our kernel (A rows, B columns) for every tile
#       preset of GPU_CHECK_TILES, for -mcpu=$GPU_CHECK_MCPU (default
#       sm_90), each with its manifest; the reference PTX GEMM is compiled
#       beside them by ptxas for the same target (the same algorithm,
#       ptxas's code; where there is no ptxas, the PTX itself, for the
#       driver to compile), with its manifest; tp-ubench writes the
#       microbenchmarks (docs/ubench.md) into DIR/ubench.  The timing model
#       (tp-sim --timing=GPU_CHECK_CARD) predicts every timed kernel and
#       every microbenchmark into DIR/predicted, for `run` to put beside
#       the measurements.
#   utils/gpu-check.sh run DIR        on the GPU machine; builds nothing:
#       it needs only DIR, the tp-run built here (build/bin/tp-run) and
#       bench/ubench/ubench.py (in the working tree).  1. Every variant runs
#       through tp-run with full verification against the exact CPU
#       reference.  2. At each size, every tile of ours, the ptxas-compiled
#       reference GEMM and cuBLAS HGEMM (utils/cublas-hgemm.py, f16 in, f32
#       accumulate) are timed (median of GPU_CHECK_ITERATIONS launches after
#       warm-up) and checked (--verify=gpu), beside the model's prediction.
#       3. Every microbenchmark runs once (tp-run --verify=none --dump-c;
#       the bandwidth ones also --bench); ubench.py checks each one's values
#       and writes the latency table with the latency model and the timing
#       model's prediction beside each measurement, and the card file.
#       Everything goes
#       to RESULTS (GPU_CHECK_RESULTS, default DIR/results), the printed
#       tables too (RESULTS/gpu-check.txt); exit 0 only when every variant,
#       every timed kernel and every microbenchmark verified.
#
# Layout of DIR (what `run` reads; anything following it can be run):
#   DIR/verify/NAME.cubin + NAME.cubin.json    verified, not timed
#   DIR/bench/tp-TILE-S.cubin + .cubin.json    our kernel, TILE, S x S x S
#   DIR/bench/ref-S.cubin + ref-S.cubin.json   ptxas's reference GEMM at S^3
#                                              (ref-S.ptx without ptxas)
#   DIR/ubench/NAME.{cubin,cubin.json,sass,expect.json}   tp-ubench's output
#   DIR/predicted/bench/NAME.{json,txt}        tp-sim --timing of bench/NAME
#   DIR/predicted/ubench/, ubench-table.md, ubench-card.json
#                                              ubench.py timing and report
# RESULTS: gpu-check.txt, logs/ (every tp-run), ubench/NAME.{out,log},
#   ubench-check.txt, ubench-table.md, card.json.
#
# Environment: TP_RUN, TP_LLC, TP_UBENCH, TP_OPT, TP_SIM (tool paths;
# default build/bin/; with tp-opt, prepare also runs tp-verify-schedule on
# every microbenchmark, bench/ubench/ubench.py verify),
# TP_BUILD_DIR, TP_PTXAS (/usr/local/cuda/bin/ptxas),
# GPU_CHECK_MCPU (sm_90), GPU_CHECK_CARD (the card predicted for,
# bench/cards: h200 for sm_90, rtx3090 otherwise), GPU_CHECK_PREDICT (1; 0
# skips the predictions), GPU_CHECK_SHAPES ("512x512x512 256x768x384"),
# GPU_CHECK_SIZES ("4096 8192"), GPU_CHECK_TILES ("large small 128x64
# 256x128"), GPU_CHECK_ITERATIONS (50), GPU_CHECK_UBENCH (1; 0 skips the
# microbenchmarks), GPU_CHECK_REF_PTX (../shared/reference/ptx/gemm_ref_sm86.ptx),
# GPU_CHECK_RESULTS (DIR/results), GPU_CHECK_LOG_DIR (each tp-run's full
# output; default RESULTS/logs), GPU_CHECK_TIMEOUT (seconds per tp-run
# call, 120), GPU_CHECK_BUDGET (seconds for the whole of `run`, 420: no
# call starts after it and none runs past it; what is left is reported
# SKIPPED and counts as a failure), GPU_CHECK_TP_RUN_FLAGS (added to every tp-run call, e.g.
# --param-passing=buffer should a cubin lack the parameter table that
# kernelParams launches need).
#
# Tested here, without a GPU: `prepare` by test/tools/tp-run/gpu-check-prepare.test
# (sm_90 cubins, manifests, microbenchmarks and the predictions); `run` by
# gpu-check-script.test against the test suite's mock driver (predictions
# beside measurements included).  NOT YET RUN ON A GPU: no device was
# lent to this project so far.  utils/cublas-hgemm.py needs CuPy or PyTorch
# (the lent H200 machine's image has both); a failure there prints n/a in
# the cuBLAS column, not an abort.
#
# Budget (issue 15: 8 minutes of device time on an H200 for `run`; `prepare`
# runs here and costs the device nothing: 60 s for the default folder on
# this 2-core machine under load (load average 11), most of it the timing
# model's predictions at 8192^3, ~6 s and 0.8 GB a kernel; the folder is
# 14 MB).  `run` over that folder against the mock driver (every launch
# refused at module load) takes 12 s: the script's own cost for its 174
# tp-run calls and ubench.py; the predictions add nothing to it.  Each
# tp-run call on the device costs about
# 0.5 s of process, driver and context start-up beside its kernels:
#  1. 64 verified variants at <= 768^3: CPU reference ~0.1 s each, so
#     ~64 x 0.6 s = ~40 s;
#  2. 2 sizes x (4 tiles + the reference) tp-run calls, each filling A and B
#     on the host (8192^3: 2 x 64 Mi halves, ~1 s), one --verify=gpu
#     reference GEMM (a naive f32 kernel, 1.1 TFLOP at 8192^3: < 1 s) and
#     60 launches (< 0.5 s at >= 100 TFLOP/s): <= ~4 s each, ~40 s; two
#     cuBLAS runs with CuPy's import ~5 s each: ~10 s;
#  3. 100 microbenchmarks, one tp-run each (~0.5 s; every kernel runs in
#     microseconds), the two bandwidth ones filling a 528 MiB A on the host
#     (~3 s) and timing 13 launches of ~0.3 ms: ~60 s; ubench.py: < 1 s.
# About 2.5 minutes in all, a third of the budget.  By construction it
# cannot take longer than GPU_CHECK_BUDGET (7 minutes, leaving one of the 8
# for the device machine's start and the transfers): every call's timeout
# is the smaller of GPU_CHECK_TIMEOUT (a hung kernel costs at most 120 s,
# 240 s timed) and the budget left, and no call starts once it is spent.
#
#===----------------------------------------------------------------------===#
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${TP_BUILD_DIR:-$ROOT/build}
TP_RUN=${TP_RUN:-$BUILD/bin/tp-run}
TP_LLC=${TP_LLC:-$BUILD/bin/tp-llc}
TP_UBENCH=${TP_UBENCH:-$BUILD/bin/tp-ubench}
TP_OPT=${TP_OPT:-$BUILD/bin/tp-opt}
TP_SIM=${TP_SIM:-$BUILD/bin/tp-sim}
PREDICT=${GPU_CHECK_PREDICT:-1}
UBENCH_PY=$ROOT/bench/ubench/ubench.py
UBENCH=${GPU_CHECK_UBENCH:-1}
MCPU=${GPU_CHECK_MCPU:-sm_90}
# The card the timing model predicts for: the lent H200 for sm_90.
if [ "$MCPU" = sm_90 ]; then CARD=${GPU_CHECK_CARD:-h200}; else CARD=${GPU_CHECK_CARD:-rtx3090}; fi
SHAPES=${GPU_CHECK_SHAPES:-"512x512x512 256x768x384"}
SIZES=${GPU_CHECK_SIZES:-"4096 8192"}
ITERATIONS=${GPU_CHECK_ITERATIONS:-50}
REF_PTX=${GPU_CHECK_REF_PTX:-$ROOT/../shared/reference/ptx/gemm_ref_sm86.ptx}
PTXAS=${TP_PTXAS:-/usr/local/cuda/bin/ptxas}
TIMEOUT=${GPU_CHECK_TIMEOUT:-120}
BUDGET=${GPU_CHECK_BUDGET:-420}
# Word-split on purpose: several flags may be given.
read -r -a RUN_FLAGS <<<"${GPU_CHECK_TP_RUN_FLAGS:-}"
LAYOUTS="rows:columns rows:rows columns:columns columns:rows"
TILES=${GPU_CHECK_TILES:-"large small 128x64 256x128"}

die() { echo "gpu-check: error: $*" >&2; exit 1; }

usage() {
  sed -n '3,/^# Layout of DIR/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit 1
}

# The reference PTX GEMM (gemm_sm86_rows_cols(A, B, C, M, N, K), 128x128
# tile, 256 threads, 64 KiB dynamic shared) at S x S x S.
write_ref_manifest() {
  local file=$1 s=$2 target=$3
  cat > "$file" <<EOF
{
  "format_version": 1,
  "kernel": "gemm_sm86_rows_cols",
  "target": "$target",
  "grid": [$((s / 128)), $((s / 128)), 1],
  "block": [256, 1, 1],
  "dynamic_shared_bytes": 65536,
  "static_shared_bytes": 0,
  "params": [
    {"name": "A", "role": "A", "offset": 0, "size": 8},
    {"name": "B", "role": "B", "offset": 8, "size": 8},
    {"name": "C", "role": "C", "offset": 16, "size": 8},
    {"name": "M", "role": "M", "offset": 24, "size": 4},
    {"name": "N", "role": "N", "offset": 28, "size": 4},
    {"name": "K", "role": "K", "offset": 32, "size": 4}
  ],
  "m": $s,
  "n": $s,
  "k": $s,
  "layout_a": "rows",
  "layout_b": "columns",
  "residual": false
}
EOF
}

prepare() {
  local dir=$1
  [ -x "$TP_LLC" ] || die "no tp-llc at $TP_LLC (build it first, or set TP_LLC)"
  [ -f "$REF_PTX" ] || die "no reference PTX at $REF_PTX (set GPU_CHECK_REF_PTX)"
  [ "$UBENCH" = 0 ] || [ -x "$TP_UBENCH" ] ||
    die "no tp-ubench at $TP_UBENCH (build it first, or set TP_UBENCH; GPU_CHECK_UBENCH=0 skips it)"
  [ "$PREDICT" = 0 ] || [ -x "$TP_SIM" ] ||
    die "no tp-sim at $TP_SIM (build it first, or set TP_SIM; GPU_CHECK_PREDICT=0 skips the predictions)"
  mkdir -p "$dir/verify" "$dir/bench" || die "cannot create $dir"
  local shape lay la lb tile res name
  for shape in $SHAPES; do
    for lay in $LAYOUTS; do
      la=${lay%%:*}
      lb=${lay##*:}
      for tile in $TILES; do
        for res in nores res; do
          name="$la-$lb-$tile-$res-$shape"
          "$TP_LLC" -mcpu="$MCPU" --gemm="$shape" --layout-a="$la" \
            --layout-b="$lb" --tile="$tile" \
            $([ "$res" = res ] && echo --residual) \
            -filetype=obj -o "$dir/verify/$name.cubin" ||
            die "tp-llc failed for $name"
          [ -f "$dir/verify/$name.cubin.json" ] ||
            die "tp-llc wrote no manifest beside $name.cubin"
        done
      done
    done
  done
  local s
  for s in $SIZES; do
    for tile in $TILES; do
      "$TP_LLC" -mcpu="$MCPU" --gemm="${s}x${s}x${s}" --layout-a=rows \
        --layout-b=columns --tile="$tile" -filetype=obj \
        -o "$dir/bench/tp-$tile-$s.cubin" || die "tp-llc failed for tp-$tile-$s"
      [ -f "$dir/bench/tp-$tile-$s.cubin.json" ] ||
        die "tp-llc wrote no manifest beside tp-$tile-$s.cubin"
    done
    if [ -x "$PTXAS" ]; then
      "$PTXAS" -arch="$MCPU" -o "$dir/bench/ref-$s.cubin" "$REF_PTX" ||
        die "ptxas failed on $REF_PTX"
      write_ref_manifest "$dir/bench/ref-$s.cubin.json" "$s" "$MCPU"
    else
      cp "$REF_PTX" "$dir/bench/ref-$s.ptx" || die "cannot copy $REF_PTX"
      write_ref_manifest "$dir/bench/ref-$s.ptx.json" "$s" sm_86
    fi
  done
  local ub=0
  if [ "$UBENCH" != 0 ]; then
    "$TP_UBENCH" -mcpu="$MCPU" -o "$dir/ubench" >/dev/null ||
      die "tp-ubench failed"
    ub=$(ls "$dir"/ubench/*.expect.json | wc -l)
    # Nothing unsafe goes to the device: tp-verify-schedule on one pass of
    # each (only the sweep variants below the model may fail it).
    if [ -x "$TP_OPT" ]; then
      local vdir
      vdir=$(mktemp -d) || die "mktemp failed"
      python3 "$UBENCH_PY" verify "$dir/ubench" "$vdir" --tp-opt "$TP_OPT" \
        >"$vdir/verify.txt" || {
        grep -A4 UNEXPECTED "$vdir/verify.txt" >&2
        die "a microbenchmark fails tp-verify-schedule (see above)"
      }
      rm -rf "$vdir"
    fi
  fi
  local predicted=""
  if [ "$PREDICT" != 0 ]; then
    predict "$dir" "$ub"
    predicted=", predicted by tp-sim --timing=$CARD for $NPRED_BENCH timed kernels and $NPRED_UB microbenchmarks"
  fi
  echo "gpu-check: prepared $(ls "$dir"/verify/*.json | wc -l) variants," \
    "$(ls "$dir"/bench/*.json | wc -l) timed kernels and $ub microbenchmarks in $dir ($MCPU)$predicted"
}

# predict DIR UB: the timing model's prediction (tp-sim --timing=$CARD,
# docs/timing-model.md) of every timed kernel, DIR/predicted/bench/NAME.json
# (--timing-sample: the blocks one SM holds, the result check skipped), and,
# when UB microbenchmarks were written, of every microbenchmark,
# DIR/predicted/ubench (ubench.py timing: the modelled slots and
# modeled.json), with its report (table, card file).  `run` puts each
# prediction beside the measurement.  A kernel the model cannot predict is
# reported and left without a prediction (n/a in the table).
predict() {
  local dir=$1 ub=$2 pred=$1/predicted cubin name
  mkdir -p "$pred/bench" || die "cannot create $pred"
  NPRED_BENCH=0
  for cubin in "$dir"/bench/*.cubin; do
    [ -e "$cubin" ] || break
    name=$(basename "$cubin" .cubin)
    if "$TP_SIM" "$cubin" --timing="$CARD" --timing-sample \
      --timing-json="$pred/bench/$name.json" >"$pred/bench/$name.txt" 2>&1; then
      NPRED_BENCH=$((NPRED_BENCH + 1))
    else
      echo "gpu-check: warning: no prediction for $name (tp-sim exit $?, $pred/bench/$name.txt)" >&2
      rm -f "$pred/bench/$name.json"
    fi
  done
  NPRED_UB=0
  if [ "$ub" != 0 ]; then
    python3 "$UBENCH_PY" timing "$dir/ubench" "$pred/ubench" --card "$CARD" \
      --tp-sim "$TP_SIM" >"$pred/ubench-timing.txt" ||
      echo "gpu-check: warning: the timing model found a failure in a microbenchmark ($pred/ubench-timing.txt)" >&2
    python3 "$UBENCH_PY" report "$dir/ubench" "$pred/ubench" \
      --table "$pred/ubench-table.md" --card-json "$pred/ubench-card.json" ||
      die "ubench.py report failed on the predictions"
    NPRED_UB=$(grep -c '"blocks"' "$pred/ubench/modeled.json")
  fi
}

# field NAME LINE: the value of NAME=... in a tp-run summary line.
field() {
  sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"
}

# verdict RC: the word for a tp-run exit code.
verdict() {
  case $1 in
  0) echo PASS ;;
  2) echo FAIL ;;
  3) echo DRIVER-ERROR ;;
  77) echo NO-GPU ;;
  124) echo TIMEOUT ;;
  *) echo "ERROR($1)" ;;
  esac
}

FAILURES=0
LOG=""
RESULTS=""
START=$SECONDS

# limit SECONDS: the timeout of the next call, SECONDS or the budget left,
# whichever is smaller, at least 1 (`timeout 0` would mean none).
limit() {
  local left=$((BUDGET - (SECONDS - START)))
  if [ "$1" -lt $left ]; then
    echo "$1"
  elif [ $left -ge 1 ]; then
    echo $left
  else
    echo 1
  fi
}
# spent WHAT: true, reporting WHAT as SKIPPED (a failure), when the budget
# is spent.
spent() {
  if [ $((BUDGET - (SECONDS - START))) -le 0 ]; then
    echo "$1: SKIPPED (GPU_CHECK_BUDGET of ${BUDGET} s spent)"
    FAILURES=$((FAILURES + 1))
    return 0
  fi
  return 1
}

# 1. Every variant, verified against the exact CPU reference.
run_verify() {
  local dir=$1 json input name out line v rc count=0 failed=0
  printf '%-46s %-13s %-12s %-10s %s\n' variant shape verify rel_err max_err
  for json in "$dir"/verify/*.json; do
    [ -e "$json" ] || break
    input=${json%.json}
    name=$(basename "$input")
    name=${name%.*}
    spent "$name" && continue
    out=$(timeout "$(limit "$TIMEOUT")" "$TP_RUN" "$input" --verify=cpu \
      ${RUN_FLAGS[@]+"${RUN_FLAGS[@]}"} 2>&1)
    rc=$?
    echo "$out" >"$LOG/verify-$name.log"
    line=$(grep '^summary:' <<<"$out")
    v=$(verdict $rc)
    [ $rc -eq 0 ] || failed=$((failed + 1))
    count=$((count + 1))
    printf '%-46s %-13s %-12s %-10s %s\n' "$name" "$(field shape "$line")" \
      "$v" "$(field rel_err "$line")" "$(field max_err "$line")"
    if [ $rc -ne 0 ]; then
      grep -E 'error|FAIL|unwritten|first bad' <<<"$out" | head -4 | sed 's/^/    /'
    fi
  done
  echo "# $count variants, $failed failed"
  echo
  FAILURES=$((FAILURES + failed))
}

# time_one DIR SIZE KIND LABEL: one timed row; prints the TFLOP/s to fd 3.
time_one() {
  local dir=$1 s=$2 kind=$3 label=$4 input out rc line tf ms
  input=$(ls "$dir/bench/$kind-$s".* 2>/dev/null | grep -v '\.json$' | head -1)
  if [ -z "$input" ]; then
    printf '%-6s %-24s %s\n' "$s" "$label" "missing"
    FAILURES=$((FAILURES + 1))
    return
  fi
  spent "$s $label" && return
  out=$(timeout "$(limit $((TIMEOUT * 2)))" "$TP_RUN" "$input" --verify=gpu --bench \
    --warmup=10 --iterations="$ITERATIONS" \
    ${RUN_FLAGS[@]+"${RUN_FLAGS[@]}"} 2>&1)
  rc=$?
  echo "$out" >"$LOG/bench-$kind-$s.log"
  line=$(grep '^summary:' <<<"$out")
  tf=$(field tflops "$line")
  ms=$(field median_ms "$line")
  [ $rc -eq 0 ] || FAILURES=$((FAILURES + 1))
  # The ratios are against the first tile of ours timed at this size.
  if [ -z "$OURS_TF" ] && [ "${kind#tp-}" != "$kind" ]; then OURS_TF=$tf; fi
  local pred
  pred=$(predicted_tflops "$dir/predicted/bench/$kind-$s.json")
  printf '%-6s %-24s %-8s %-10s %-9s %-6s %-9s %s\n' "$s" "$label" "$(verdict $rc)" \
    "${ms:-n/a}" "${tf:-n/a}" "$(ratio "$OURS_TF" "$tf")" "${pred:-n/a}" \
    "$(model_error "$tf" "$pred")"
  if [ $rc -ne 0 ]; then
    grep -E 'error|FAIL' <<<"$out" | head -3 | sed 's/^/    /'
  fi
}

# predicted_tflops FILE: the TFLOP/s of a prediction (tp-sim --timing-json),
# or nothing.
predicted_tflops() {
  [ -f "$1" ] && sed -n 's/^ *"tflops": \([0-9.e+-]*\).*/\1/p' "$1" |
    awk '{ printf "%.2f", $1 }'
}

# model_error MEASURED PREDICTED: measured / predicted - 1, in percent.
model_error() {
  if [ -n "$1" ] && [ -n "$2" ]; then
    awk -v m="$1" -v p="$2" 'BEGIN { if (p > 0) printf "%+.1f%%", (m / p - 1) * 100; else print "-" }'
  else
    echo "-"
  fi
}

# 2. Timing at each size: every tile of ours, the ptxas-compiled
# reference, cuBLAS; beside each of ours and the reference, the timing
# model's prediction (prepare's DIR/predicted/bench).
run_timed() {
  local dir=$1 s tile out rc line tf
  printf '%-6s %-24s %-8s %-10s %-9s %-6s %-9s %s\n' size kernel verify median_ms \
    TFLOP/s vs_tp model model_err
  for s in $SIZES; do
    OURS_TF=""
    # The default (large) tile first when it is one of them.
    for tile in $(tr ' ' '\n' <<<"$TILES" | grep -x large) \
      $(tr ' ' '\n' <<<"$TILES" | grep -vx large); do
      time_one "$dir" "$s" "tp-$tile" "tp $tile ($MCPU)"
    done
    time_one "$dir" "$s" ref "ptxas reference PTX"
    spent "$s cuBLAS" && continue
    out=$(timeout "$(limit "$TIMEOUT")" python3 "$ROOT/utils/cublas-hgemm.py" "$s" \
      "$ITERATIONS" 2>&1)
    rc=$?
    line=$(grep '^summary:' <<<"$out")
    tf=$(field tflops "$line")
    printf '%-6s %-24s %-8s %-10s %-9s %s\n' "$s" \
      "cuBLAS $(field kind "$line")" "$([ $rc -eq 0 ] && echo timed || echo n/a)" \
      "$(field median_ms "$line")" "${tf:-n/a}" "$(ratio "$OURS_TF" "$tf")"
    [ $rc -eq 0 ] || tail -2 <<<"$out" | sed 's/^/    /'
  done
  echo
  echo "# vs_tp = TFLOP/s of tp's first tile (large) / this kernel's (> 1: tp is faster)"
  echo "# model = tp-sim --timing=$CARD's TFLOP/s (prepare), model_err = measured / model - 1"
}

# 3. The microbenchmarks: one launch each, the output slots dumped; the
# bandwidth ones also timed by events.  ubench.py checks the values (a
# wrong one is reported, never timed) and writes the table and card file.
run_ubench() {
  local dir=$1/ubench out=$RESULTS/ubench json name input rc flags n=0 bad=0
  [ -d "$dir" ] || { echo "# no $dir: microbenchmarks not prepared"; return; }
  mkdir -p "$out" || die "cannot create $out"
  for json in "$dir"/*.expect.json; do
    [ -e "$json" ] || break
    name=$(basename "$json" .expect.json)
    input=$dir/$name.cubin
    [ -e "$input" ] || input=$dir/$name.ptx
    flags=(--verify=none "--dump-c=$out/$name.out")
    if grep -q '"kind": "global-bandwidth"' "$json"; then
      flags+=(--bench --warmup=3 --iterations=10)
    fi
    spent "$name" && continue
    timeout "$(limit "$TIMEOUT")" "$TP_RUN" "$input" "${flags[@]}" \
      ${RUN_FLAGS[@]+"${RUN_FLAGS[@]}"} >"$out/$name.log" 2>&1
    rc=$?
    n=$((n + 1))
    if [ $rc -ne 0 ]; then
      bad=$((bad + 1))
      echo "$name: tp-run $(verdict $rc)"
      grep -E 'error' "$out/$name.log" | head -2 | sed 's/^/    /'
    fi
  done
  echo "# $n microbenchmarks launched, $bad launch(es) failed"
  FAILURES=$((FAILURES + bad))
  python3 "$UBENCH_PY" check "$dir" "$out" >"$RESULTS/ubench-check.txt"
  rc=$?
  grep -v ' right$' "$RESULTS/ubench-check.txt"
  [ $rc -eq 0 ] || FAILURES=$((FAILURES + 1))
  local card driver
  card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
  local predicted=()
  [ -f "$1/predicted/ubench/modeled.json" ] &&
    predicted=(--predicted "$1/predicted/ubench")
  python3 "$UBENCH_PY" report "$dir" "$out" --card "${card:-unknown card}" \
    --driver "${driver:-unknown}" --date "$(date -u +%F)" \
    ${predicted[@]+"${predicted[@]}"} \
    --table "$RESULTS/ubench-table.md" --card-json "$RESULTS/card.json" ||
    FAILURES=$((FAILURES + 1))
  echo
  cat "$RESULTS/ubench-table.md"
}

run() {
  local dir=$1
  [ -x "$TP_RUN" ] || die "no tp-run at $TP_RUN (it is built on the CPU machine and carried; set TP_RUN)"
  [ -d "$dir/verify" ] || [ -d "$dir/bench" ] || [ -d "$dir/ubench" ] ||
    die "$dir has no verify/, bench/ or ubench/ (run '$0 prepare $dir' first)"

  echo "# gpu-check $(date -u '+%Y-%m-%d %H:%M UTC')"
  local probe rc
  probe=$("$TP_RUN" --probe 2>&1)
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "$probe"
    echo "gpu-check: no usable GPU (tp-run --probe exit $rc); nothing was run"
    exit "$rc"
  fi
  echo "$probe" | sed 's/^/# /'
  if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader |
      sed 's/^/# nvidia-smi: /'
  fi
  echo "# tp-run: $TP_RUN"
  echo "# results: $RESULTS"
  echo
  LOG=${GPU_CHECK_LOG_DIR:-$RESULTS/logs}
  mkdir -p "$LOG" || die "cannot create $LOG"

  run_verify "$dir"
  run_timed "$dir"
  run_ubench "$dir"
  echo "# logs: $LOG"
  if [ $FAILURES -ne 0 ]; then
    echo "gpu-check: $FAILURES check(s) failed"
    exit 1
  fi
  echo "gpu-check: all verified"
}

# ratio OURS THEIRS: OURS / THEIRS with two decimals, or "-".
ratio() {
  if [ -n "$1" ] && [ -n "$2" ]; then
    awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
  else
    echo "-"
  fi
}

case ${1:-} in
prepare) [ $# -eq 2 ] || usage; prepare "$2" ;;
run)
  [ $# -eq 2 ] || usage
  RESULTS=${GPU_CHECK_RESULTS:-$2/results}
  mkdir -p "$RESULTS" || die "cannot create $RESULTS"
  run "$2" 2>&1 | tee "$RESULTS/gpu-check.txt"
  ;;
*) usage ;;
esac
