#!/bin/bash
# Assembles every .sass file under $1 (the test suite) for sm_80, sm_86,
# sm_89 and sm_90 into $2: line-oriented text with --show-encoding into
# $2/<target>.words, whole-cubin text (a .target line; its target replaced)
# with -filetype=obj into $2/<target>-<name>.cubin (a file with raw `.inst`
# words only for its own target: those bits mean another instruction on
# another target, e.g. sm_90's wider BRA offset).  A file tp-mc refuses
# on a target (deliberately bad input, or another target's instructions) is
# skipped there; $2/<target>.skipped names them.  Prints a line of counts a
# target.
set -eu
src=$1
out=$2
files=$(find "$src" -name '*.sass' | sort)
for t in sm_80 sm_86 sm_89 sm_90; do
  : > "$out/$t.words"
  : > "$out/$t.skipped"
  lines=0 cubins=0 skipped=0 retarget=0
  for f in $files; do
    name=$(echo "${f#$src/}" | tr '/' '_')
    if grep -q '^\.target ' "$f"; then
      if grep -q '\.inst ' "$f" && ! grep -q "^\.target $t\$" "$f"; then
        retarget=$((retarget + 1))
        continue
      fi
      sed "s/^\.target .*/.target $t/" "$f" > "$out/$t-$name"
      if tp-mc --assemble -filetype=obj --no-warn "$out/$t-$name" \
           -o "$out/$t-$name.cubin" > /dev/null 2>&1; then
        cubins=$((cubins + 1))
      else
        rm -f "$out/$t-$name.cubin"
        echo "$f" >> "$out/$t.skipped"
        skipped=$((skipped + 1))
      fi
    elif tp-mc --assemble --show-encoding --no-warn -mcpu=$t "$f" \
           > "$out/$t-$name.txt" 2> /dev/null; then
      grep -o 'encoding: 0x[0-9a-f]\{32\}' "$out/$t-$name.txt" \
        >> "$out/$t.words" || true
      lines=$((lines + 1))
    else
      echo "$f" >> "$out/$t.skipped"
      skipped=$((skipped + 1))
    fi
  done
  echo "$t: $lines line-oriented files ($(wc -l < "$out/$t.words") words), $cubins whole-cubin files ($retarget with .inst words left to their own target), $skipped refused"
done
