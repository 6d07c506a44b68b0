#!/bin/bash
# mutate.sh OUT NAME SED-SCRIPT [TP-LLC OPTIONS...]
#
# Builds a kernel from tp-swizzle's output edited by SED-SCRIPT and runs it
# on tp-sim with the schedule checked; prints "NAME: <tp-sim verdict>".
#  1. tp-llc OPTIONS -stop-after=tp-swizzle: the tile IR (OUT/ref.tp) and,
#     without stopping, the reference cubin and its launch manifest;
#  2. sed SED-SCRIPT on the IR; an edit that changes nothing is an error;
#  3. tp-opt runs the rest of tp-llc's pipeline (tp-select, tp-interleave,
#     tp-regalloc, tp-compact-stalls, tp-form-loop) on the edited IR;
#  4. the MIR becomes the kernel-form .sass (the reference cubin's
#     directives, the MIR's register count and instructions, NOPs to 128
#     bytes) and tp-mc assembles it; the reference manifest describes the launch;
#  5. tp-sim --check-schedule runs it.
# With SED-SCRIPT empty ("") step 2 keeps the IR and the cubin must be
# the reference cubin byte for byte (the path is tp-llc's own).
set -e
out=$1 name=$2 edit=$3
shift 3
tp-llc "$@" -stop-after=tp-swizzle -o $out/ref.tp
tp-llc "$@" -filetype=obj -o $out/ref.cubin
tp-mc --disassemble $out/ref.cubin -o $out/ref.sass
if [ -n "$edit" ]; then
  sed -e "$edit" $out/ref.tp > $out/$name.tp
  if cmp -s $out/ref.tp $out/$name.tp; then
    echo "$name: the edit '$edit' changed nothing"; exit 1
  fi
else
  cp $out/ref.tp $out/$name.tp
fi
tp-opt -passes=tp-select,tp-interleave,tp-regalloc,tp-compact-stalls,tp-form-loop \
  $out/$name.tp -o $out/$name.mir
regs=$(sed -n 's/^sass.func .* regs(\([0-9]*\)).*/\1/p' $out/$name.mir)
{
  sed -n '1,/^\.shared/p' $out/ref.sass | sed "s/^\.regs .*/.regs $regs/"
  sed -e '/^sass\.func /d' -e '/^piece /d' -e '/^}$/d' -e 's| *//.*||' \
      -e 's/^\^\([A-Za-z0-9_.]*\):$/.L_\1:/' -e 's/\^\([A-Za-z0-9_.]*\)/.L_\1/' \
      -e 's/ ; {yield}$//' -e 's/ ; \({.*}\)$/ \1/' $out/$name.mir
  # ptxas's padding to 128 bytes, as tp-llc writes it
  n=$(grep -c '^  ' $out/$name.mir)
  while [ $((n % 8)) -ne 0 ]; do echo '  NOP {yield}'; n=$((n + 1)); done
  echo .end_kernel
} > $out/$name.sass
tp-mc --assemble -filetype=obj $out/$name.sass -o $out/$name.cubin
cp $out/ref.cubin.json $out/$name.cubin.json
if [ -z "$edit" ]; then
  cmp $out/ref.cubin $out/$name.cubin
fi
if tp-sim $out/$name.cubin --check-schedule --seed 3 > $out/$name.log 2>&1; then
  echo "$name: $(tail -1 $out/$name.log)"
else
  echo "$name: $(grep -E '^(FAIL|hazards)' $out/$name.log | tr '\n' ' ')"
fi
