#!/usr/bin/env bash
# Device call: the DG patch kernel on block contractions / tensor cores (issue 16): Cuda tests,
# sanitizers, smoother-step A/B (lines vs blocks), patch-wise operator A/B, FGMRES + V-cycle solves.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s); deadline=$((start + ${DEADLINE:-570}))
R=$OUT/r; mkdir -p $R
tar xJf .device/build-cuda.txz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total --format=csv; nproc; } > $R/env.txt 2>&1
cat build-cuda/COMMIT >> $R/env.txt
B=build-cuda; P=$B/drivers/tensormg-poisson
t() { local name=$1 cap=$2; shift 2; local left=$((deadline - $(date +%s))); [ $left -lt 10 ] && { echo "== $name skipped (deadline)" >> $R/log.txt; return; }
  [ $cap -gt $left ] && cap=$left; echo "== $name (cap $cap s, at $(( $(date +%s) - start )) s): $*" >> $R/log.txt
  ( time timeout $cap "$@" ) > $R/$name.txt 2>&1; echo "rc=$?" >> $R/$name.txt; tail -4 $R/$name.txt | head -2 >> $R/log.txt; }
s() { grep -E '^  (iterations|solve time)|L2 error|setup time' $R/$1.txt | tr -s ' ' | tr '\n' ';' >> $R/log.txt; echo >> $R/log.txt; }
t test-core 60 $B/tests/test_core --gtest_filter='BlockContraction*'
t test-patch 120 $B/tests/test_dg_vertex_patch --gtest_filter='*/Cuda.*'
t test-laplace 120 $B/tests/test_dg_laplace --gtest_filter='*/Cuda.*'
t memcheck 120 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 5 $B/tests/test_dg_vertex_patch --gtest_filter='DgVertexPatch/Cuda.BlockContractions*'
t racecheck 120 compute-sanitizer --tool racecheck --error-exitcode 9 --print-limit 5 $B/tests/test_dg_vertex_patch --gtest_filter='DgVertexPatch/Cuda.BlockContractions*'
t racecheck-core 60 compute-sanitizer --tool racecheck --error-exitcode 9 --print-limit 5 $B/tests/test_core --gtest_filter='BlockContractionTest/Cuda.*'
$B/perf/tensormg-ceilings -o $R/ceilings.json > /dev/null 2>&1
for round in 1 2; do
  t smoother3d-$round 90 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3 --dofs 1.6e7 --dg-contractions lines,blocks --precisions double --ceilings $R/ceilings.json --repeats 10
  t smoother2d-$round 60 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 2 --degrees 3 --dofs 1.6e7 --dg-contractions lines,blocks --dg-inversions fast-diagonalization --precisions double --ceilings $R/ceilings.json --repeats 10
  t operator-$round 90 $B/perf/tensormg-bench-operator --discretizations dg --dims 2,3 --degrees 3 --dofs 3e7 --dg-evaluations cell,patch --dg-contractions lines,blocks --spmv-max-gib 0 --ceilings $R/ceilings.json --repeats 10
  for r in 6 7; do
    for c in lines blocks; do
      t solve-r$r-$c-$round 60 $P --discretization dg --dim 3 -k 3 -r $r --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --contraction $c; s solve-r$r-$c-$round
    done
    t solve-r$r-mixed-$round 60 $P --discretization dg --dim 3 -k 3 -r $r --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --precision mixed; s solve-r$r-mixed-$round
  done
done
M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,sm__pipe_tensor_op_dmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_fp64.sum
for c in lines blocks; do
  t ncu-smoother-$c 90 ncu --kernel-name-base demangled --kernel-name regex:DgPatchKernel --launch-skip 40 --launch-count 1 --metrics $M $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3 --dofs 1.6e7 --dg-contractions $c --precisions double --repeats 3
done
grep -E "^  [23]  3 double|^dg  +[23]" $R/smoother*.txt $R/operator*.txt > $R/summary.txt
grep -E "PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" $R/test-*.txt $R/memcheck.txt $R/racecheck*.txt >> $R/summary.txt
for f in $R/ncu-*.txt; do echo "== $f"; grep -E "bank_conflicts|duration|registers|warps_active|local|dmma|fp64" $f; done >> $R/summary.txt
cd $OUT && tar czf results.tgz r && rm -rf r
