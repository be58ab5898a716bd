#!/usr/bin/env bash
# Device call: FP16 tensor cores (with and without error correction) for the float DG patch
# smoother; tests + compute-sanitizer, the kernel benchmark, the smoothing step, and the FGMRES
# precision study of paper 001 §7 (Q3, Q7 at 16.8M and 134M DoFs).
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p $R/records
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; cat build-cuda/COMMIT; } > $R/env.txt 2>&1
B=build-cuda; P=$B/drivers/tensormg-poisson
timeout 60 $B/perf/tensormg-ceilings -o $R/ceilings.json > $R/ceilings.txt 2>&1; echo "ceilings rc=$?" >> $R/log.txt
timeout 120 $B/tests/test_core --gtest_filter='*BlockContraction*' > $R/test_core.txt 2>&1; echo "test_core rc=$?" >> $R/log.txt
timeout 200 $B/tests/test_dg_vertex_patch --gtest_filter='*/Cuda.*FP16*:*/Cuda.*BlockContraction*' > $R/test_dg_vertex_patch.txt 2>&1; echo "test_dg_vertex_patch rc=$?" >> $R/log.txt
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -n "$CS" ]; then
  for tool in memcheck racecheck; do
    timeout 150 $CS --tool $tool --error-exitcode 9 $B/tests/test_core --gtest_filter='BlockContractionTest/Cuda.FP16*' > $R/sanitize-$tool.txt 2>&1
    echo "sanitize $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/sanitize-$tool.txt | tr '\n' ' ')" >> $R/log.txt
  done
fi
grep -E "PASSED|FAILED|info" $R/test_*.txt >> $R/log.txt
timeout 120 $B/perf/tensormg-bench-contraction --precisions double,float --contractions portable,mma-f64,f16,f16ec --layouts plain,swizzled --dofs 1.34e8 --repeats 10 --ceilings $R/ceilings.json -o $R/contraction.json > $R/contraction.txt 2>&1
echo "bench-contraction rc=$?" >> $R/log.txt; cat $R/contraction.txt >> $R/log.txt
timeout 150 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3 --dofs 1.6e7 --dg-contractions lines,blocks,f16,f16ec --precisions double,float --repeats 10 --ceilings $R/ceilings.json -o $R/smoother.json > $R/smoother.txt 2>&1
echo "bench-smoother rc=$?" >> $R/log.txt; grep -E "^  3" $R/smoother.txt >> $R/log.txt
solve() {  # name, args...
  local name=$1; shift
  timeout 90 $P --discretization dg --dim 3 --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --record $R/records/$name.json "$@" > $R/records/$name.txt 2>&1
  echo "$name rc=$? $(grep -E 'solve time|L2 error|iterations' $R/records/$name.txt | tr -s ' ' | tr '\n' ';')" >> $R/log.txt
}
for r in 6 7; do
  solve q3-r$r-fp64-cc -k 3 -r $r --precision double --contraction lines
  solve q3-r$r-fp64-tc -k 3 -r $r --precision double --contraction blocks
  solve q3-r$r-fp32 -k 3 -r $r --precision mixed --contraction lines
  solve q3-r$r-fp16 -k 3 -r $r --precision mixed --contraction f16
  solve q3-r$r-fp16ec -k 3 -r $r --precision mixed --contraction f16ec
done
for r in 5 6; do
  solve q7-r$r-fp64-cc -k 7 -r $r --precision double --contraction lines
  solve q7-r$r-fp32 -k 7 -r $r --precision mixed --contraction lines
done
# the 134M Q3 variants once more (run-to-run spread)
for v in "fp64-cc double lines" "fp64-tc double blocks" "fp32 mixed lines" "fp16 mixed f16" "fp16ec mixed f16ec"; do
  set -- $v; solve q3-r7-$1-b -k 3 -r 7 --precision $2 --contraction $3
done
python3 perf/precision_study.py $R/records/*.json --markdown $R/study.md --json $R/study.json >> $R/log.txt 2>&1
echo done >> $R/log.txt
