#!/bin/sh
# run.sh [NN[/name]]...: copies each answer over its step's exercise.go, runs
# `make step-N check`, records the outcome in results/, restores steps/.
# Answers: NN/<name>.go whose first line says WRONG: or valid:.
set -u
cd "$(dirname "$0")/.." || exit 1
: "${PEAKLOAD_PG_PORT:?export the worktree's ports first}"
out=redteam2/results
mkdir -p "$out"
files=""
if [ $# -eq 0 ]; then files=$(ls redteam2/[0-9][0-9]/*.go); else
  for a in "$@"; do case $a in */*) files="$files redteam2/$a.go";; *) files="$files $(ls redteam2/$a/*.go)";; esac; done
fi
for f in $files; do
  nn=$(basename "$(dirname "$f")"); name=$(basename "$f" .go)
  n=$(echo "$nn" | sed 's/^0//'); dir=$(ls -d steps/"$nn"-*)
  kind=$(head -1 "$f" | sed -n 's|^// *\(WRONG\|valid\):.*|\1|p')
  cp "$f" "$dir/exercise.go"
  timeout 600 make "step-$n" check > "$out/$nn-$name.txt" 2>&1; rc=$?
  git checkout -q steps/
  if [ $rc -eq 0 ]; then res=pass; elif [ $rc -eq 124 ]; then res=timeout; else res=fail; fi
  first=$(grep -m1 -E -- '--- FAIL|panic:|timed out|cannot|error' "$out/$nn-$name.txt" | cut -c1-160)
  printf '%s\t%s\t%s\t%s\t%s\n' "$nn" "$name" "$kind" "$res" "$first" | tee -a "$out/summary.tsv"
done
