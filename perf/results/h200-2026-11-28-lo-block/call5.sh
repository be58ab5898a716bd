#!/usr/bin/env bash
# Device call 5: low-order block scatter (fixed) against atomic, SpMV, cuSPARSE; tests; plots.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
R=$OUT/r; mkdir -p $R
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/bins.tar.xz
B=build-cuda
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
C=.device/ceilings-h200.json
stamp tests
timeout 100 $B/tests/test_low_order --gtest_filter='*Cuda*' > $R/test_low_order.txt 2>&1; echo "test_low_order exit $? $(grep -E 'PASSED|FAILED' $R/test_low_order.txt | head -3 | tr '\n' ' ')" | tee -a $R/session.log
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_low_order --gtest_filter='*Cuda*MatrixFreeEqualsAssembled*' > $R/memcheck-lo.txt 2>&1; echo "memcheck exit $? $(grep 'ERROR SUMMARY' $R/memcheck-lo.txt)" | tee -a $R/session.log
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $B/tests/test_low_order --gtest_filter='*Cuda*MatrixFreeEqualsAssembled*' > $R/racecheck-lo.txt 2>&1; echo "racecheck exit $? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $R/racecheck-lo.txt)" | tee -a $R/session.log
stamp lo
mkdir -p /tmp/csr
timeout 200 $B/perf/tensormg-bench-loworder --problems laplace,elasticity --dofs 1e7 --renumber --operators mf,spmv,noop --geometry on-the-fly --evaluation factorized --scatter atomic,block --repeats 10 --cg-iterations 20 --ceilings $C --export-csr /tmp/csr -o $R/lo-1e7.json --overwrite > $R/lo-1e7.txt 2>&1; cat $R/lo-1e7.txt >> $R/session.log
timeout 60 python3 perf/cusparse_spmv.py --repeats 20 -o $R/cusparse.json $(ls /tmp/csr/*.json | sed 's/\.json$//') > $R/cusparse.txt 2>&1; cat $R/cusparse.txt >> $R/session.log
rm -rf /tmp/csr
for bc in 64 256; do
  timeout 60 $B/perf/tensormg-bench-loworder --problems laplace,elasticity --dofs 1e7 --renumber --operators mf --geometry on-the-fly --evaluation factorized --scatter block --block-cells $bc --repeats 10 --cg-iterations 0 --ceilings $C -o $R/lo-block$bc.json --overwrite > $R/lo-block$bc.txt 2>&1; cat $R/lo-block$bc.txt >> $R/session.log
done
timeout 60 $B/perf/tensormg-bench-loworder --problems laplace,elasticity --dofs 1e6,3e6 --renumber --operators mf --geometry on-the-fly,stored --evaluation factorized,pointwise --scatter atomic,block --repeats 10 --cg-iterations 0 --ceilings $C -o $R/lo-variants.json --overwrite > $R/lo-variants.txt 2>&1; cat $R/lo-variants.txt >> $R/session.log
stamp plots
python3 perf/bp_plots.py perf/results/h200-2026-11-28-bp-fused/bp-auto.json --out $R/bp > $R/bp-plots.txt 2>&1
python3 perf/loworder_plots.py $R/lo-1e7.json $R/cusparse.json --out $R/loworder > $R/lo-plots.txt 2>&1
stamp done
tar cJf $OUT/call5.tar.xz -C $OUT r && rm -rf $R
