#!/bin/sh
# run-all.sh SANDIR PRELOAD — everything `make test` runs, with one closing
# "N passed, N failed" line summed over the C unit tests, the fuzz smoke
# runs and the Tcl suite.
SAN=$1
PRELOAD=$2
pass=0; fail=0
log=$(mktemp)
tally(){ # reads "...: N passed, M failed..." lines from $log
  p=$(sed -n 's/.* \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1/p' "$log" | awk '{s+=$1} END{print s+0}')
  f=$(sed -n 's/.* \([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2/p' "$log" | awk '{s+=$1} END{print s+0}')
  pass=$((pass+p)); fail=$((fail+f))
}
for t in "$SAN"/test/test_*; do
  [ -x "$t" ] || continue
  if ! "$t" >"$log" 2>&1; then
    cat "$log"; grep -q ' failed' "$log" || echo "$(basename "$t"): 0 passed, 1 failed (crashed)" >>"$log"
  fi
  tail -n 1 "$log"; tally
done
for t in "$SAN"/fuzz/fuzz_*; do
  [ -x "$t" ] || continue
  if ! "$t" test/corpus >"$log" 2>&1; then
    cat "$log"; echo "$(basename "$t"): 0 passed, 1 failed (crashed)" >>"$log"
  fi
  tail -n 1 "$log"; tally
done
# The Tcl suite loads the sanitizer build into tclsh.
if LD_PRELOAD="$PRELOAD" COLUMNAR_EXT="$SAN/columnar" tclsh tcl/all.tcl >"$log" 2>&1; then :; else
  grep -q ' failed' "$log" || echo "tcl: 0 passed, 1 failed (crashed)" >>"$log"
fi
cat "$log" | grep -vE '^(ok|---) ' ; tally
rm -f "$log"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
