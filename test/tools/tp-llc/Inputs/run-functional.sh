#!/bin/bash
# $1: output dir, $2: python, $3: sass-run.py, then [--shape=MxNxK] (the
# run's shape, for a run-time-shape kernel) and tp-llc's options.
# sass-run.py executes the listing (its predicated forms included) with the
# cubin's manifest.
set -e
out=$1 py=$2 runner=$3
shift 3
shape=
case "$1" in --shape=*) shape=$1; shift;; esac
tp-llc "$@" -o $out/k.s
tp-llc "$@" -filetype=obj -o $out/k.cubin
$py $runner $out/k.s $out/k.cubin.json $shape
