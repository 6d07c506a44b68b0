#!/usr/bin/env bash
#===- utils/gpu-check.sh - Verify and time tp's kernels on a GPU ---------===#
#
# Issue 7, item 3: one prepared command for a GPU machine.  Two steps:
#
#   utils/gpu-check.sh prepare DIR    on the CPU machine, after `ninja`:
#       tp-llc builds every variant (4 layouts x 4 tiles x residual on/off,
#       at each shape of GPU_CHECK_SHAPES) and the default kernel (A rows,
#       B columns, large tile) at each size of GPU_CHECK_SIZES, for
#       -mcpu=$GPU_CHECK_MCPU (default sm_90), each with its manifest; the
#       reference PTX GEMM is compiled beside them by ptxas for the same
#       target (the same algorithm, ptxas's code; where there is no ptxas,
#       the PTX itself, for the driver to compile), with its manifest.
#   utils/gpu-check.sh run DIR        on the GPU machine; builds nothing:
#       it needs only DIR and the tp-run built here (build/bin/tp-run; both
#       travel with the working tree: name them in the device tool's carry).
#       Every variant runs through tp-run with full verification against the
#       exact CPU reference; then, at each size, our default kernel, the
#       ptxas-compiled reference GEMM (PTX compiled by the driver) and
#       cuBLAS HGEMM (utils/cublas-hgemm.py, f16 in, f32 accumulate) are
#       timed (median of GPU_CHECK_ITERATIONS launches after warm-up) and
#       checked (--verify=gpu).  One table is printed; exit 0 only when
#       every variant and every timed kernel verified.
#
# Layout of DIR (what `run` reads; anything following it can be run):
#   DIR/verify/NAME.cubin + NAME.cubin.json    verified, not timed
#   DIR/bench/tp-S.cubin  + tp-S.cubin.json    our kernel at S x S x S
#   DIR/bench/ref-S.cubin + ref-S.cubin.json   ptxas's reference GEMM at S^3
#                                              (ref-S.ptx without ptxas)
#
# Environment: TP_RUN, TP_LLC (tool paths; default build/bin/), TP_BUILD_DIR,
# TP_PTXAS (/usr/local/cuda/bin/ptxas),
# GPU_CHECK_MCPU (sm_90), GPU_CHECK_SHAPES ("512x512x512 256x768x384"),
# GPU_CHECK_SIZES ("4096 8192"), GPU_CHECK_ITERATIONS (50),
# GPU_CHECK_REF_PTX (../shared/reference/ptx/gemm_ref_sm86.ptx),
# GPU_CHECK_LOG_DIR (each tp-run's full output; default a new mktemp -d),
# GPU_CHECK_TIMEOUT (seconds per tp-run call, 120), GPU_CHECK_TP_RUN_FLAGS
# (added to every tp-run call, e.g. --param-passing=buffer should a cubin
# lack the parameter table that kernelParams launches need).
#
# Tested here, without a GPU: `prepare` by test/tools/tp-run/gpu-check-prepare.test
# (sm_90 cubins and manifests from tp-llc); `run` by gpu-check-script.test
# against the test suite's mock driver.  NOT YET RUN ON A GPU: no device was
# lent to this project so far.  utils/cublas-hgemm.py needs CuPy or PyTorch
# (the lent H200 machine's image has both); a failure there prints n/a in
# the cuBLAS column, not an abort.
# Budget: 64 verified runs at <= 768^3 (CPU reference ~0.1 s each) plus six
# timed kernels; expected well under the 5 minutes issue 7 allows.
#
#===----------------------------------------------------------------------===#
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${TP_BUILD_DIR:-$ROOT/build}
TP_RUN=${TP_RUN:-$BUILD/bin/tp-run}
TP_LLC=${TP_LLC:-$BUILD/bin/tp-llc}
MCPU=${GPU_CHECK_MCPU:-sm_90}
SHAPES=${GPU_CHECK_SHAPES:-"512x512x512 256x768x384"}
SIZES=${GPU_CHECK_SIZES:-"4096 8192"}
ITERATIONS=${GPU_CHECK_ITERATIONS:-50}
REF_PTX=${GPU_CHECK_REF_PTX:-$ROOT/../shared/reference/ptx/gemm_ref_sm86.ptx}
PTXAS=${TP_PTXAS:-/usr/local/cuda/bin/ptxas}
TIMEOUT=${GPU_CHECK_TIMEOUT:-120}
# Word-split on purpose: several flags may be given.
read -r -a RUN_FLAGS <<<"${GPU_CHECK_TP_RUN_FLAGS:-}"
LAYOUTS="rows:columns rows:rows columns:columns columns:rows"
TILES="large small 128x64 256x128"

die() { echo "gpu-check: error: $*" >&2; exit 1; }

usage() {
  sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'
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
    "$TP_LLC" -mcpu="$MCPU" --gemm="${s}x${s}x${s}" --layout-a=rows \
      --layout-b=columns --tile=large -filetype=obj \
      -o "$dir/bench/tp-$s.cubin" || die "tp-llc failed for tp-$s"
    [ -f "$dir/bench/tp-$s.cubin.json" ] ||
      die "tp-llc wrote no manifest beside tp-$s.cubin"
    if [ -x "$PTXAS" ]; then
      "$PTXAS" -arch="$MCPU" -o "$dir/bench/ref-$s.cubin" "$REF_PTX" ||
        die "ptxas failed on $REF_PTX"
      write_ref_manifest "$dir/bench/ref-$s.cubin.json" "$s" "$MCPU"
    else
      cp "$REF_PTX" "$dir/bench/ref-$s.ptx" || die "cannot copy $REF_PTX"
      write_ref_manifest "$dir/bench/ref-$s.ptx.json" "$s" sm_86
    fi
  done
  echo "gpu-check: prepared $(ls "$dir"/verify/*.json | wc -l) variants and" \
    "$(ls "$dir"/bench/*.json | wc -l) timed kernels in $dir ($MCPU)"
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

run() {
  local dir=$1
  [ -x "$TP_RUN" ] || die "no tp-run at $TP_RUN (it is built on the CPU machine and carried; set TP_RUN)"
  [ -d "$dir/verify" ] || [ -d "$dir/bench" ] ||
    die "$dir has no verify/ or bench/ (run '$0 prepare $dir' first)"
  local failures=0 log

  echo "# gpu-check $(date -u '+%Y-%m-%d %H:%M UTC')"
  local probe
  probe=$("$TP_RUN" --probe 2>&1)
  local rc=$?
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
  echo
  log=${GPU_CHECK_LOG_DIR:-}
  if [ -n "$log" ]; then
    mkdir -p "$log" || die "cannot create $log"
  else
    log=$(mktemp -d) || die "mktemp failed"
  fi

  # 1. Every variant, verified against the exact CPU reference.
  printf '%-46s %-13s %-12s %-10s %s\n' variant shape verify rel_err max_err
  local json input name out line v count=0
  for json in "$dir"/verify/*.json; do
    [ -e "$json" ] || break
    input=${json%.json}
    name=$(basename "$input")
    name=${name%.*}
    out=$(timeout "$TIMEOUT" "$TP_RUN" "$input" --verify=cpu \
      ${RUN_FLAGS[@]+"${RUN_FLAGS[@]}"} 2>&1)
    rc=$?
    echo "$out" >"$log/verify-$name.log"
    line=$(grep '^summary:' <<<"$out")
    v=$(verdict $rc)
    [ $rc -eq 0 ] || failures=$((failures + 1))
    count=$((count + 1))
    printf '%-46s %-13s %-12s %-10s %s\n' "$name" "$(field shape "$line")" \
      "$v" "$(field rel_err "$line")" "$(field max_err "$line")"
    if [ $rc -ne 0 ]; then
      grep -E 'error|FAIL|unwritten|first bad' <<<"$out" | head -4 | sed 's/^/    /'
    fi
  done
  echo "# $count variants, $failures failed"
  echo

  # 2. Timing at each size: ours, the ptxas-compiled reference, cuBLAS.
  printf '%-6s %-22s %-8s %-10s %-9s %s\n' size kernel verify median_ms TFLOP/s vs_tp
  local s ours_tf kind input tf ms
  for s in $SIZES; do
    ours_tf=""
    for kind in tp ref; do
      input=$(ls "$dir/bench/$kind-$s".* 2>/dev/null | grep -v '\.json$' | head -1)
      if [ -z "$input" ]; then
        printf '%-6s %-22s %s\n' "$s" "$kind" "missing"
        failures=$((failures + 1))
        continue
      fi
      out=$(timeout "$((TIMEOUT * 2))" "$TP_RUN" "$input" --verify=gpu --bench \
        --warmup=10 --iterations="$ITERATIONS" \
        ${RUN_FLAGS[@]+"${RUN_FLAGS[@]}"} 2>&1)
      rc=$?
      echo "$out" >"$log/bench-$kind-$s.log"
      line=$(grep '^summary:' <<<"$out")
      tf=$(field tflops "$line")
      ms=$(field median_ms "$line")
      [ $rc -eq 0 ] || failures=$((failures + 1))
      [ "$kind" = tp ] && ours_tf=$tf
      printf '%-6s %-22s %-8s %-10s %-9s %s\n' "$s" \
        "$([ $kind = tp ] && echo "tp ($MCPU)" || echo "ptxas reference PTX")" \
        "$(verdict $rc)" "${ms:-n/a}" "${tf:-n/a}" "$(ratio "$ours_tf" "$tf")"
      if [ $rc -ne 0 ]; then
        grep -E 'error|FAIL' <<<"$out" | head -3 | sed 's/^/    /'
      fi
    done
    out=$(timeout "$TIMEOUT" python3 "$ROOT/utils/cublas-hgemm.py" "$s" \
      "$ITERATIONS" 2>&1)
    rc=$?
    line=$(grep '^summary:' <<<"$out")
    tf=$(field tflops "$line")
    printf '%-6s %-22s %-8s %-10s %-9s %s\n' "$s" \
      "cuBLAS $(field kind "$line")" "$([ $rc -eq 0 ] && echo timed || echo n/a)" \
      "$(field median_ms "$line")" "${tf:-n/a}" "$(ratio "$ours_tf" "$tf")"
    [ $rc -eq 0 ] || tail -2 <<<"$out" | sed 's/^/    /'
  done
  echo
  echo "# vs_tp = tp's TFLOP/s / this kernel's TFLOP/s (> 1: tp is faster)"
  echo "# logs: $log"
  if [ $failures -ne 0 ]; then
    echo "gpu-check: $failures check(s) failed"
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
run) [ $# -eq 2 ] || usage; run "$2" ;;
*) usage ;;
esac
