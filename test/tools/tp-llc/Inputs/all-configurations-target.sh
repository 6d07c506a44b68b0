#!/bin/bash
# all-configurations-target.sh OUTDIR TARGET FLAGS: builds every layout x
# tile x residual configuration (fixed shape) into OUTDIR with
# -mcpu=TARGET, asm and obj, and checks for each: the manifest names
# TARGET, the cubin's e_flags are FLAGS, the cubin disassembles (the
# target's tables, taken from the e_flags) to the listing, the listing
# assembles with `tp-mc -mcpu=TARGET --fatal-warnings` (only
# oracle-verified forms), and the cubin's whole-cubin .sass text (the
# kernel form, not the raw one) assembles back to the same bytes.  Prints
# "<config> ok" per configuration, stops at the first failure.
set -e
out=$1 target=$2 flags=$3
for a in rows columns; do for b in rows columns; do
  for t in large small 128x64 256x128; do for r in "" --residual; do
    n=$a-$b-$t$r
    args=(-mcpu=$target --gemm=512x512x512 --layout-a=$a --layout-b=$b
          --tile=$t $r --fixed-shape)
    tp-llc "${args[@]}" -o $out/$n.s
    tp-llc "${args[@]}" -filetype=obj -o $out/$n.cubin
    grep -q "\"target\": *\"$target\"" $out/$n.cubin.json
    tp-mc --dump-cubin $out/$n.cubin | grep -q "flags: $flags ($target)"
    tp-mc --disassemble --show-control $out/$n.cubin > $out/$n.dis
    grep -v '^// \^' $out/$n.s | diff - $out/$n.dis > /dev/null
    tp-mc -mcpu=$target --assemble --fatal-warnings $out/$n.s -o /dev/null
    tp-mc --disassemble $out/$n.cubin -o $out/$n.sass
    grep -q '^\.kernel ' $out/$n.sass
    ! grep -q '^\.elf_header' $out/$n.sass
    tp-mc --assemble -filetype=obj $out/$n.sass -o $out/$n.again.cubin
    cmp $out/$n.cubin $out/$n.again.cubin
    echo "$n ok"
  done; done
done; done
