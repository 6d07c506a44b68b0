#!/bin/sh
# A stand-in for tp-ubench in gpu-check-prepare.test: runs the real one
# ($REAL_TP_UBENCH, same arguments: -mcpu=X -o DIR), then breaks one
# at-model sweep variant (IADD3 -> IADD3 at stall 2 where the model asks 4).
"$REAL_TP_UBENCH" "$@" || exit 1
sed -i 's/0x1, RZ {stall=4}/0x1, RZ {stall=2}/' "$3/lat-alu-alu-s4.sass"
