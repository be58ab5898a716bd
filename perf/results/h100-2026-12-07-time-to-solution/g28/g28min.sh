#!/usr/bin/env bash
# g28 cut to what the last minutes of device budget allow: the corrections start runs (small and
# Q3 57M against the double start and double), Cuda mixed-precision multigrid tests.
set -u
R=$OUT/r; mkdir -p $R/solves
for f in .device/*.tar.xz; do tar xJf $f; done
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
B=build-cuda
run() {
  local name=$1 bin=$2; shift 2
  timeout 40 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E 'relative true residual' $R/solves/$name.txt | sed 's/  */ /g')" >> $R/solves.txt
}
run small-k3r3-corr $B/drivers/tensormg-poisson --dim 3 -k 3 -r 3 --solver fmg --precision mixed --mixed-start corrections --problem one --rtol 1e-9
run small-2d-k3r4-corr $B/drivers/tensormg-poisson --dim 2 -k 3 -r 4 --solver fmg --precision mixed --mixed-start corrections --problem one --rtol 1e-9
for v in "double" "mixed --mixed-start double" "mixed --mixed-start corrections"; do
  n=$(echo "$v" | tr -d ' -')
  run "k3r7-$n" $B/drivers/tensormg-poisson --dim 3 -k 3 -r 7 --solver fmg --precision $v --problem one --rtol 1e-9 --repeat 3
done
timeout 60 $B/tests/test_multigrid --gtest_filter='*Cuda*Mixed*' > $R/test_multigrid.txt 2>&1
echo "test_multigrid exit $? $(grep -E '^\[  (PASSED|FAILED)' $R/test_multigrid.txt | tr '\n' ' ')" >> $R/solves.txt
