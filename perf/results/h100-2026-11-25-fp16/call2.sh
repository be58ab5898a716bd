#!/usr/bin/env bash
# Device call 2: Kokkos with the opt-in shared memory patch; FP64 m16n8k16 N = 16 (k = 7) tensor
# cores in the DG patch kernel; tests + compute-sanitizer; smoother, operator and contraction
# benchmarks (the study runs in call3.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p $R/records $R/logs
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; cat build-cuda/COMMIT; } > $R/env.txt 2>&1
B=build-cuda; P=$B/drivers/tensormg-poisson; L=$R/logs
timeout 60 $B/perf/tensormg-ceilings -o $R/ceilings.json > $L/ceilings.txt 2>&1; echo "ceilings rc=$?" >> $R/log.txt
timeout 150 $B/tests/test_core --gtest_filter='*Backend*:*BlockContraction*' > $L/test_core.txt 2>&1; echo "test_core rc=$?" >> $R/log.txt
timeout 200 $B/tests/test_dg_vertex_patch --gtest_filter='*/Cuda.*' > $L/test_dg_vertex_patch.txt 2>&1; echo "test_dg_vertex_patch rc=$?" >> $R/log.txt
timeout 120 $B/tests/test_dg_laplace --gtest_filter='*/Cuda.*' > $L/test_dg_laplace.txt 2>&1; echo "test_dg_laplace rc=$?" >> $R/log.txt
timeout 60 $B/tests/test_tuning_tables > $L/test_tuning_tables.txt 2>&1; echo "test_tuning_tables rc=$?" >> $R/log.txt
grep -hE "PASSED|FAILED|info" $L/test_*.txt >> $R/log.txt
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -n "$CS" ]; then
  for tool in memcheck racecheck; do
    timeout 150 $CS --tool $tool --error-exitcode 9 $B/tests/test_dg_vertex_patch --gtest_filter='*/Cuda.N16*' > $L/sanitize-$tool-n16.txt 2>&1
    echo "sanitize $tool n16 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/sanitize-$tool-n16.txt | tr '\n' ' ')" >> $R/log.txt
    timeout 100 $CS --tool $tool --error-exitcode 9 $B/tests/test_core --gtest_filter='Backend/Cuda.Large*' > $L/sanitize-$tool-scratch.txt 2>&1
    echo "sanitize $tool large-scratch rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/sanitize-$tool-scratch.txt | tr '\n' ' ')" >> $R/log.txt
  done
fi
timeout 150 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3,7 --dofs 3e7 --dg-contractions lines,blocks --precisions double --repeats 10 --ceilings $R/ceilings.json -o $R/smoother-fp64.json > $L/smoother-fp64.txt 2>&1
echo "smoother fp64 rc=$?" >> $R/log.txt; grep -E "^  3" $L/smoother-fp64.txt >> $R/log.txt
timeout 100 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3 --dofs 1.6e7 --dg-contractions lines,blocks,f16,f16ec --precisions float --repeats 10 --ceilings $R/ceilings.json -o $R/smoother-fp32.json > $L/smoother-fp32.txt 2>&1
echo "smoother fp32 rc=$?" >> $R/log.txt; grep -E "^  3" $L/smoother-fp32.txt >> $R/log.txt
timeout 100 $B/perf/tensormg-bench-operator --discretizations dg --dg-evaluations cell,patch --dg-contractions lines,blocks --dims 3 --degrees 3,7 --dofs 3e7 --precisions double --repeats 10 --spmv-max-gib 0 --ceilings $R/ceilings.json -o $R/operator-dg.json > $L/operator-dg.txt 2>&1
echo "operator dg rc=$?" >> $R/log.txt; grep -E "^dg" $L/operator-dg.txt >> $R/log.txt
timeout 60 $B/perf/tensormg-bench-operator --discretizations cg --dims 3 --degrees 4,7 --dofs 5e7 --repeats 10 --spmv-max-gib 0 --ceilings $R/ceilings.json -o $R/operator-cg.json > $L/operator-cg.txt 2>&1
echo "operator cg rc=$?" >> $R/log.txt; grep -E "^cg" $L/operator-cg.txt >> $R/log.txt
timeout 120 $B/perf/tensormg-bench-contraction --precisions double,float --contractions portable,mma-f64,f16,f16ec --layouts plain,swizzled --dofs 1.34e8 --repeats 10 --ceilings $R/ceilings.json -o $R/contraction.json > $L/contraction.txt 2>&1
echo "bench-contraction rc=$?" >> $R/log.txt; cat $L/contraction.txt >> $R/log.txt
tar czf $R/logs.tgz -C $R logs && rm -rf $R/logs
echo done >> $R/log.txt
