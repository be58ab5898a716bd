#!/usr/bin/env bash
# Device call g2 (2026-12-03, stop 51): the bake-off scratch rows padded only where a row of 4 or 8
# entries put 4 or 8 threads on one bank (the rule of call 1's measurements) against stop 50's
# final tree ("old"), two rounds alternating; CUDA test_bake_off; the time split of a BP5 CG
# iteration by kernel (nsys, else ncu's duration metric); Nsight Compute's full set on the
# element kernel and the fused operator of BP3.5 k = 7; a cells-per-team sweep at k = 3, 7.
# Logs packed into $OUT/r/logs.tar.xz at the end and after each step (the tool returns 8 files).
set -u
R=$OUT/r; mkdir -p $R/logs; L=$R/logs
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; tar cJf $R/logs.tar.xz -C $R logs; }
late() { [ $(( $(date +%s) - t0 )) -gt ${2:-540} ] && { echo "skipped $1 (time)" >> $R/session.log; return 0; }; return 1; }
tar xJf .device/g2.tar.xz
B=build-g
C=$B/ceilings.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $L/env.txt 2>&1
stamp tests
timeout 100 $B/tests/test_bake_off --gtest_filter='*Cuda*:BakeOffNames*' > $L/test_bake_off.txt 2>&1
echo "test_bake_off exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_bake_off.txt | tr '\n' ' ')" >> $R/session.log
ARGS="--problems bp1.0,bp3.5,bp3.0 --geometry stored,trilinear --degrees 2,3,4,5,6,7,8 --dofs 2e7 --deformation random --amplitude 0.1 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C"
stamp ab
for run in old-a new-a new-b old-b; do
  late $run 200 && continue
  timeout 80 $B/perf/tensormg-bench-bp-${run%-*} $ARGS -o $R/$run.json --overwrite > $L/$run.txt 2>&1
  echo "bp $run exit $?" >> $R/session.log
  stamp "bp $run"
done
ONE="--problems bp3.5 --dofs 2e7 --deformation random --amplitude 0.1 --geometry stored"
NSYS=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems*/bin/nsys 2>/dev/null | head -1)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
echo "nsys: $NSYS ncu: $NCU" >> $R/session.log
late split 300 || {
  if [ -n "$NSYS" ]; then
    for k in 3 5 7; do
      timeout 60 $NSYS profile -o $R/cg-k$k --force-overwrite true $B/perf/tensormg-bench-bp-new $ONE --degrees $k --repeats 1 --warmup 0 --cg-iterations 20 > $L/nsys-run-k$k.txt 2>&1
      timeout 60 $NSYS stats --report cuda_gpu_kern_sum --format csv $R/cg-k$k.nsys-rep > $L/nsys-kern-k$k.csv 2>&1
      echo "nsys k=$k exit $?" >> $R/session.log; rm -f $R/cg-k$k.nsys-rep $R/cg-k$k.sqlite
    done
  else
    timeout 90 $NCU --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --kernel-name-base demangled --kernel-name 'regex:DistributedVector|krylov|BakeOff|fill|dot' $B/perf/tensormg-bench-bp-new $ONE --degrees 7 --repeats 1 --warmup 0 --cg-iterations 2 > $L/ncu-split-k7.txt 2>&1
    echo "ncu split exit $?" >> $R/session.log
  fi
  stamp split; }
late ncu-full 400 || {
  timeout 70 $NCU --set full --kernel-name-base demangled --kernel-name regex:BakeOffKernel --launch-count 6 $B/perf/tensormg-bench-bp-new $ONE --degrees 7 --repeats 1 --warmup 0 --cg-iterations 0 > $L/ncu-full-bp35-k7.txt 2>&1
  echo "ncu full k=7 exit $?" >> $R/session.log; stamp "ncu full"; }
late sweep 480 || {
  timeout 60 $B/perf/tensormg-bench-bp-new $ONE --degrees 3 --cells-per-team 8,12,16,20 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C -o $L/sweep-k3.json --overwrite > $L/sweep-k3.txt 2>&1
  timeout 60 $B/perf/tensormg-bench-bp-new $ONE --degrees 7 --cells-per-team 1,2,3,4 --repeats 5 --warmup 0.1 --cg-iterations 20 --ceilings $C -o $L/sweep-k7.json --overwrite > $L/sweep-k7.txt 2>&1
  echo "sweep exit $?" >> $R/session.log; stamp sweep; }
late memcheck 530 || {
  timeout 50 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_bake_off --gtest_filter='*Cuda*' > $L/memcheck.txt 2>&1
  echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt | tr '\n' ' ')" >> $R/session.log; }
stamp done
rm -rf $R/logs
