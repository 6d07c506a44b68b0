#!/bin/bash
# $1: output dir, $2: python, $3: sass-run.py, then tp-llc options.
set -e
out=$1 py=$2 runner=$3
shift 3
tp-llc "$@" -o $out/k.s
tp-llc "$@" -filetype=obj -o $out/k.cubin
$py $runner $out/k.s $out/k.cubin.json
