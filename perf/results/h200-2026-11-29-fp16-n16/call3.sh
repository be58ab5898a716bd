#!/usr/bin/env bash
# Device call f3 (2026-11-29): the final kernel (float blocks of 16 in teams of 256, four an SM):
# DG FP16 tests on Cuda; one smoothing step k = 3, 5, 6, 7 (FP64 lines/blocks, float lines/f16/
# f16ec); the FGMRES precision study of paper 001 §7 at Q5, Q6, Q7 with FP16 and FP16 EC, two rounds.
set -u
R=$OUT/r; mkdir -p $R/logs $R/records
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/f3.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
B=build-cuda; L=$R/logs; C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 240 $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda*' > $L/test_dg_vertex_patch.txt 2>&1
echo "test_dg_vertex_patch exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_dg_vertex_patch.txt | tr '\n' ' ')" | tee -a $R/session.log
grep -E "FP16 EC|FAILED|Failure" $L/test_dg_vertex_patch.txt | tee -a $R/session.log
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 200 $CS --tool racecheck $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.FP16*' > $L/racecheck-dg.txt 2>&1; echo "racecheck dg exit $? $(tail -1 $L/racecheck-dg.txt)" | tee -a $R/session.log
timeout 200 $CS --tool memcheck $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.FP16*' > $L/memcheck-dg.txt 2>&1; echo "memcheck dg exit $? $(tail -1 $L/memcheck-dg.txt)" | tee -a $R/session.log
stamp smoother
timeout 200 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3,5,6,7 --dofs 3e7 --dg-contractions lines,blocks,f16,f16ec --precisions double,float --repeats 10 --ceilings $C -o $R/smoother.json > $L/smoother.txt 2>&1
echo "smoother exit $?" | tee -a $R/session.log
grep -E "^  3" $L/smoother.txt | grep -v " blocks .*float\|float .* blocks" >> $R/session.log
stamp study
P=$B/drivers/tensormg-poisson
solve() {  # name, args...
  local name=$1; shift
  timeout 60 $P --discretization dg --dim 3 --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --record $R/records/$name.json "$@" > $R/records/$name.txt 2>&1
  echo "$name rc=$? $(grep -E 'solve time|L2 error|iterations' $R/records/$name.txt | tr -s ' ' | tr '\n' ';' | cut -c1-160)" >> $R/session.log
}
for round in a b; do
  for k in 5 6 7; do
    extra=""; [ $k = 7 ] && extra="--restart 10"
    for v in "fp64-cc double lines" "fp64-tc double blocks" "fp32 mixed lines" "fp16 mixed f16" "fp16ec mixed f16ec"; do
      set -- $v; solve q$k-r6-$1-$round -k $k -r 6 --precision $2 --contraction $3 $extra
    done
  done
done
python3 perf/precision_study.py $R/records/*.json --markdown $R/study.md --png $R/fgmres-precision.png >> $R/session.log 2>&1; echo "precision_study rc=$?" >> $R/session.log
tar czf $R/records.tgz -C $R records && rm -rf $R/records
tar czf $R/logs.tgz -C $R logs && rm -rf $R/logs
stamp done
