#!/bin/bash
# test/Sim/coverage-ops.test's runs for one target: each kernel of
# test/MC/Inputs that covers an instruction family tp-sim once refused
# (sad_forms: VABSDIFF, IADD.64 -A; barrier_forms: BAR.RED + B2R.RESULT,
# BAR.ARV / BAR.SYNC with a count; redux_forms: REDUX, CREDUX;
# indirect_calls: CALL.REL.NOINC, CALL through a register, RET.REL.NODEC,
# MOV.64; activemask: divergent __activemask() shuffles, WARPSYNC Rx,
# BRA.CONV; warp_mask: BRA.CONV, WARPSYNC, REDUX, MATCH.ANY with a run-time
# mask), built by ptxas for TARGET (.target and, on Blackwell, .version
# rewritten) and run by tp-sim; Inputs/coverage.py checks every value
# against what the PTX means.  Prints one line per check, stops at the
# first failure.
#
#   coverage-ops.sh PTXAS PYTHON MCINPUTS TARGET OUTDIR
set -e
ptxas=$1 py=$2 inputs=$3 target=$4 out=$5
here=$(dirname "$0")
mkdir -p "$out"
build() { # NAME -> $out/NAME.cubin
  sed -e "s/^\.target sm_86$/.target $target/" \
      -e "$([ "${target#sm_1}" != "$target" ] && echo 's/^\.version .*$/.version 8.8/')" \
      "$inputs/$1.ptx" > "$out/$1.ptx"
  "$ptxas" -arch=$target "$out/$1.ptx" -o "$out/$1.cubin"
}
# --check-schedule everywhere but where ptxas's own schedule is reported
# (docs/tp-sim.md: sm_86 warp_mask's ULDC -> BRA.CONV at 3 cycles).
check=--check-schedule
sim() {
  if ! tp-sim "$@" $check > "$out/sim.log" 2>&1; then
    cat "$out/sim.log"
    echo "tp-sim failed: $*"
    exit 1
  fi
  grep '^hazards:' "$out/sim.log" || true
}

"$py" "$here/coverage.py" gen-in "$out/in.bin" 96 1
"$py" "$here/coverage.py" gen-small "$out/small.bin" 64 2
"$py" "$here/coverage.py" gen-am "$out/am.bin" 64 3

build sad_forms
sim "$out/sad_forms.cubin" --kernel sad_forms --grid 1 --block 32 \
  --param buf:out=$out/sad.out:2048 --param buf:in=$out/in.bin --param u32=0x12345
"$py" "$here/coverage.py" check-sad $out/sad.out $out/in.bin 0x12345

build barrier_forms
for k in 0 70 128; do
  sim "$out/barrier_forms.cubin" --kernel barrier_forms --grid 2 --block 128 \
    --param buf:out=$out/bar$k.out:2048 --param u32=$k
  "$py" "$here/coverage.py" check-barrier $out/bar$k.out $k 128
done

build redux_forms
sim "$out/redux_forms.cubin" --kernel redux_forms --grid 1 --block 32 \
  --param buf:out=$out/redux.out:1536 --param buf:in=$out/in.bin
"$py" "$here/coverage.py" check-redux $out/redux.out $out/in.bin

build indirect_calls
sim "$out/indirect_calls.cubin" --kernel indirect_calls --grid 1 --block 64 \
  --param buf:out=$out/calls.out:256 --param buf:in=$out/small.bin --param s32=7
"$py" "$here/coverage.py" check-calls $out/calls.out $out/small.bin 7

build activemask
sim "$out/activemask.cubin" --kernel activemask --grid 1 --block 64 \
  --param buf:out=$out/am.out:256 --param buf:in=$out/am.bin
"$py" "$here/coverage.py" check-activemask $out/am.out $out/am.bin

build warp_mask
[ "$target" = sm_86 ] && check=
for m in 0xffffffff 0x0f0f0f0f; do
  sim "$out/warp_mask.cubin" --kernel warp_mask --grid 1 --block 64 \
    --param buf:out=$out/wm$m.out:256 --param buf:in=$out/small.bin --param u32=$m
  "$py" "$here/coverage.py" check-warpmask $out/wm$m.out $out/small.bin $m
done
