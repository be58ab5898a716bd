#!/usr/bin/env bash
# Device call: the block contraction on tensor cores (issue 16): tests, sanitizers, ceilings,
# bench (two rounds), ncu bank conflicts per variant.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s); deadline=$((start + ${DEADLINE:-560}))
R=$OUT/r; mkdir -p $R
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; nproc; } > $R/env.txt 2>&1
cat build-cuda/COMMIT >> $R/env.txt
B=build-cuda
t() { local name=$1 cap=$2; shift 2; local left=$((deadline - $(date +%s))); [ $left -lt 10 ] && { echo "== $name skipped (deadline)" >> $R/log.txt; return; }
  [ $cap -gt $left ] && cap=$left; echo "== $name (cap $cap s, at $(( $(date +%s) - start )) s): $*" >> $R/log.txt
  ( time timeout $cap "$@" ) > $R/$name.txt 2>&1; echo "rc=$?" >> $R/$name.txt; tail -4 $R/$name.txt | head -2 >> $R/log.txt; }
t test 120 $B/tests/test_core --gtest_filter='*BlockContraction*'
t ceilings 120 $B/perf/tensormg-ceilings -o $R/ceilings.json
for round in 1 2; do
  t bench-$round 120 $B/perf/tensormg-bench-contraction --dofs 1e6,1.6e7,1.34e8 --ceilings $R/ceilings.json -o $R/bench-$round.json
done
t memcheck 150 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 5 $B/tests/test_core --gtest_filter='BlockContractionTest/Cuda.*'
t racecheck 150 compute-sanitizer --tool racecheck --error-exitcode 9 --print-limit 5 $B/tests/test_core --gtest_filter='BlockContractionTest/Cuda.*'
M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_fp64.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active
for c in portable mma-f64; do for l in plain swizzled; do
  t ncu-$c-$l 90 ncu --kernel-name-base demangled --kernel-name regex:PatchLaplacianKernel --launch-skip 3 --launch-count 1 --metrics $M $B/perf/tensormg-bench-contraction --dofs 1.6e7 --contractions $c --layouts $l --repeats 2
done; done
grep -E "^(portable|mma-f64) " $R/bench-*.txt > $R/summary.txt
for f in $R/ncu-*.txt; do echo "== $f"; grep -E "bank_conflicts|wavefronts|duration|registers|warps_active|fp64|dmma" $f; done >> $R/summary.txt
cd $OUT && tar czf results.tgz r && rm -rf r
