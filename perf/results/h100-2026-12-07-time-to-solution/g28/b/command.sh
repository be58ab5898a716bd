#!/usr/bin/env bash
# g28 second command, on the still-warm H100 right after g28min.sh (same binaries, .device/bin28):
# Q1 and Q7 FMG double / mixed (double start) / mixed (corrections start) and the old binary
# (59edd0b, tensormg-poisson-old) mixed; memcheck of a small corrections solve.
set -u; R=$OUT/r; mkdir -p $R/solves; B=build-cuda
run() { local name=$1 bin=$2; shift 2; timeout 40 $bin "$@" > $R/solves/$name.txt 2>&1; echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E 'relative true residual' $R/solves/$name.txt | sed 's/  */ /g')" >> $R/solves.txt; }
for spec in "-k 1 -r 9" "-k 7 -r 6"; do
  n=$(echo "$spec" | tr -d ' -')
  for v in "double" "mixed --mixed-start double" "mixed --mixed-start corrections"; do
    m=$(echo "$v" | tr -d ' -'); run "$n-$m" $B/drivers/tensormg-poisson --dim 3 $spec --solver fmg --precision $v --problem one --rtol 1e-9 --repeat 3
  done
  run "$n-mixed-old" $B/drivers/tensormg-poisson-old --dim 3 $spec --solver fmg --precision mixed --problem one --rtol 1e-9 --repeat 3
done
timeout 50 compute-sanitizer --tool memcheck $B/drivers/tensormg-poisson --dim 3 -k 3 -r 2 --solver fmg --precision mixed --mixed-start corrections --problem one > $R/memcheck-corr.txt 2>&1
echo "memcheck exit $? $(grep 'ERROR SUMMARY' $R/memcheck-corr.txt)" >> $R/solves.txt
