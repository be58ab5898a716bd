#!/usr/bin/env bash
# Device call 6: final binaries (full CUDA build with the cross-execution-space errors): tests; BP FP32 fused lines vs staged.
set -u
R=$OUT/r; mkdir -p $R
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/bins.tar.xz
B=build-cuda
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
C=.device/ceilings-h200.json
stamp tests
timeout 100 $B/tests/test_bake_off --gtest_filter='*Cuda*' > $R/test_bake_off.txt 2>&1; echo "test_bake_off exit $? $(grep -E 'PASSED|FAILED' $R/test_bake_off.txt | head -3 | tr '\n' ' ')" | tee -a $R/session.log
timeout 60 $B/tests/test_low_order --gtest_filter='*Cuda*' > $R/test_low_order.txt 2>&1; echo "test_low_order exit $? $(grep -E 'PASSED|FAILED' $R/test_low_order.txt | head -3 | tr '\n' ' ')" | tee -a $R/session.log
stamp bp-fp32
timeout 150 $B/perf/tensormg-bench-bp --problems bp1.0,bp3.5,bp3.0 --degrees 2,3,4,5,6,7,8 --dofs 2e7 --precisions float --repeats 5 --cg-iterations 0 --element-io lines,staged --ceilings $C -o $R/bp-fp32.json --overwrite > $R/bp-fp32.txt 2>&1; cat $R/bp-fp32.txt >> $R/session.log
stamp done
tar cJf $OUT/call6.tar.xz -C $OUT r && rm -rf $R
