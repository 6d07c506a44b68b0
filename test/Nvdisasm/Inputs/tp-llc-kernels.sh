#!/bin/bash
# Writes into $1 one cubin per tp-llc variant that tp-llc-kernels.test checks:
# each target x layout of A and B x tile x run-time/fixed shape, then bf16,
# an f16 D with alpha, beta, bias and ReLU, a bf16 D, a residual and a batch.
set -eu
out=$1
for t in sm_80 sm_86 sm_89 sm_90; do
  for la in rows columns; do
    for lb in rows columns; do
      for tile in large small 128x64 256x128; do
        common="-mcpu=$t --gemm=512x512x1024 --layout-a=$la --layout-b=$lb --tile=$tile -filetype=obj"
        tp-llc $common -o "$out/$t-$la-$lb-$tile-rt.cubin"
        tp-llc $common --fixed-shape -o "$out/$t-$la-$lb-$tile-fx.cubin"
      done
    done
  done
  tp-llc -mcpu=$t --a-type=bf16 --b-type=bf16 -filetype=obj -o "$out/$t-bf16.cubin"
  tp-llc -mcpu=$t --d-type=f16 --alpha=2 --beta=0.5 --bias --relu -filetype=obj -o "$out/$t-epi.cubin"
  tp-llc -mcpu=$t --a-type=bf16 --b-type=bf16 --d-type=bf16 --beta=1 -filetype=obj -o "$out/$t-dbf16.cubin"
  tp-llc -mcpu=$t --residual --gemm=1000x999x77 -filetype=obj -o "$out/$t-res.cubin"
  tp-llc -mcpu=$t --batch=4 --gemm=256x256x512 -filetype=obj -o "$out/$t-batch.cubin"
done
