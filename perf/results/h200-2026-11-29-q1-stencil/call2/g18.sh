#!/usr/bin/env bash
# Device call g18 (2026-11-29): the gathered Q1 operator's z nodes per thread (build-z, 081f4cb:
# --gather-z-nodes) swept 1..64 in 3D FP64/FP32, two rounds; Cuda test of the operator with
# memcheck; Nsight Compute on the gathered operator and the per-patch smoother (3D Q1, FP64 and
# FP32).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/g18.tar.xz
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 200 build-z/tests/test_laplace_operator --gtest_filter='*Cuda*' > $L/test_laplace_operator.txt 2>&1
echo "test_laplace_operator exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_laplace_operator.txt | tr '\n' ' ')" >> $R/session.log
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 200 $CS --tool memcheck build-z/tests/test_laplace_operator --gtest_filter='*Cuda.Gather*' > $L/memcheck-op.txt 2>&1; echo "memcheck op exit $? $(tail -1 $L/memcheck-op.txt)" >> $R/session.log
stamp sweep
for round in a b; do
  timeout 200 build-z/perf/tensormg-bench-operator --dims 3 --degrees 1 --dofs 6e7 --precisions double,float --scatter auto --gather-z-nodes 1,2,4,8,16,32,64 --ceilings $C --spmv-max-gib 0 --repeats 10 -o $R/z-$round.json --overwrite > $L/z-$round.txt 2>&1
  echo "z sweep $round exit $?" >> $R/session.log
done
stamp ncu
export PATH=$PATH:$(ls -d /usr/local/cuda*/bin 2>/dev/null | head -1)
mkdir -p $R/ncu
for prec in double float; do
  KERNEL=LaplaceQ1Gather PRECISION=$prec timeout 150 bash perf/profile_operator.sh build-z $R/ncu 3 1 > $L/ncu-op-$prec.log 2>&1
  mv $R/ncu/ncu-3d-k1.txt $R/ncu/ncu-gather-3d-k1-$prec.txt 2>/dev/null
  echo "ncu operator $prec exit $?" >> $R/session.log
  PRECISION=$prec timeout 200 bash perf/profile_smoother.sh build-z $R/ncu 3 1 > $L/ncu-sm-$prec.log 2>&1
  mv $R/ncu/ncu-smoother-3d-k1.txt $R/ncu/ncu-smoother-3d-k1-$prec.txt 2>/dev/null
  mv $R/ncu/ncu-smoother-stalls-3d-k1.txt $R/ncu/ncu-smoother-stalls-3d-k1-$prec.txt 2>/dev/null
  echo "ncu smoother $prec exit $?" >> $R/session.log
done
stamp done
cd $OUT && tar cJf r.tar.xz r && rm -rf r
