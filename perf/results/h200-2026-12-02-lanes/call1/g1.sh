#!/usr/bin/env bash
# Device call g1 (2026-12-02, session 3): the lanes evaluation of the Q1 operators (elasticity ≥ 5×
# SpMV, issue 18). CUDA tests of test_low_order (every evaluation, lanes 1/2/4/8, against the
# assembled matrix and the textbook element matrix), memcheck + synccheck (the shuffles' masks) on
# them; the operators at 1e7 DoFs: factorized vs lanes 1/2/4/8, SpMV, NoOp, cuSPARSE; ncu of both
# elasticity kernels.
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g1.tar.xz
B=build-g
C=perf/results/h200-2026-11-28-boundary-residual/call1/ceilings.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > $R/env.txt 2>&1
stamp tests
timeout 150 $B/tests/test_low_order --gtest_filter='*Cuda*:LowOrderOptions*' > $L/test_low_order.txt 2>&1
echo "test_low_order exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_low_order.txt | tr '\n' ' ')" >> $R/session.log
for tool in memcheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $B/tests/test_low_order --gtest_filter='*Cuda*MatrixFreeEqualsAssembled*:*Cuda*Textbook*' > $L/$tool.txt 2>&1
  echo "$tool exit $? $(grep -E 'ERROR SUMMARY' $L/$tool.txt | tr '\n' ' ')" >> $R/session.log
done
stamp bench
mkdir -p /tmp/csr
timeout 200 $B/perf/tensormg-bench-loworder --problems laplace,elasticity --dofs 1e7 --renumber --operators mf,spmv,noop --geometry on-the-fly --evaluation factorized,lanes --lanes 1,2,4,8 --scatter atomic --repeats 10 --cg-iterations 20 --ceilings $C --export-csr /tmp/csr -o $R/lo-1e7.json --overwrite > $L/lo-1e7.txt 2>&1; echo "bench exit $?" >> $R/session.log
timeout 90 python3 perf/cusparse_spmv.py --repeats 20 -o $R/cusparse.json $(ls /tmp/csr/*.json | sed 's/\.json$//') > $L/cusparse.txt 2>&1; echo "cusparse exit $?" >> $R/session.log
rm -rf /tmp/csr
timeout 120 $B/perf/tensormg-bench-loworder --problems laplace,elasticity --dofs 1e7 --renumber --operators mf --geometry stored --evaluation factorized,lanes --lanes 8 --scatter atomic,coloured --repeats 10 --cg-iterations 0 --ceilings $C -o $R/lo-variants.json --overwrite > $L/lo-variants.txt 2>&1; echo "variants exit $?" >> $R/session.log
stamp ncu
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for k in LowOrderCellKernel LowOrderLaneKernel; do
  timeout 120 $NCU --set full --kernel-name-base demangled --kernel-name regex:$k --launch-skip 3 --launch-count 1 $B/perf/tensormg-bench-loworder --problems elasticity --dofs 3e6 --operators mf --geometry on-the-fly --evaluation factorized,lanes --lanes 8 --scatter atomic --repeats 3 --cg-iterations 0 > $R/ncu-$k.txt 2>&1
  echo "ncu $k exit $?" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
