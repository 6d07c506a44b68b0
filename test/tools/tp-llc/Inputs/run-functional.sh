#!/bin/bash
# $1: output dir, $2: python, $3: sass-run.py, then tp-llc options.
# The kernels are fixed-shape (sass-run.py executes their instructions; the
# run-time-shape kernels' predicated forms are tp-sim's: test/Sim/Shapes).
set -e
out=$1 py=$2 runner=$3
shift 3
tp-llc --fixed-shape "$@" -o $out/k.s
tp-llc --fixed-shape "$@" -filetype=obj -o $out/k.cubin
$py $runner $out/k.s $out/k.cubin.json
