#!/usr/bin/env bash
# Device call f1 (2026-11-29): FP16 tensor-core block contractions for float N = 9..16 (be0976f):
# Cuda tests + sanitizers, one smoothing step k = 3, 5, 7 (float lines/blocks/f16/f16ec, FP64
# lines/blocks), the FGMRES precision study at Q5 and Q7 with FP16 and FP16 EC.
set -u
R=$OUT/r; mkdir -p $R/logs $R/records
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" | tee -a $R/session.log; }
tar xJf .device/f1.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
B=build-cuda; L=$R/logs; C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
timeout 120 $B/tests/test_core --gtest_filter='*Cuda*:BlockContraction*' > $L/test_core.txt 2>&1
echo "test_core exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_core.txt | tr '\n' ' ')" | tee -a $R/session.log
grep "info" $L/test_core.txt | grep -i "mma" | tee -a $R/session.log
timeout 200 $B/tests/test_dg_vertex_patch --gtest_filter='*Cuda.FP16*:*Cuda.Padded*' > $L/test_dg_vertex_patch.txt 2>&1
echo "test_dg_vertex_patch exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/test_dg_vertex_patch.txt | tr '\n' ' ')" | tee -a $R/session.log
grep "info" $L/test_dg_vertex_patch.txt | tee -a $R/session.log
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 150 $CS --tool memcheck $B/tests/test_core --gtest_filter='*Cuda.FP16*' > $L/memcheck-core.txt 2>&1; echo "memcheck core exit $? $(tail -1 $L/memcheck-core.txt)" | tee -a $R/session.log
timeout 150 $CS --tool racecheck $B/tests/test_core --gtest_filter='*Cuda.FP16*' > $L/racecheck-core.txt 2>&1; echo "racecheck core exit $? $(tail -1 $L/racecheck-core.txt)" | tee -a $R/session.log
stamp smoother
for round in a b; do
  timeout 150 $B/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3,5,7 --dofs 3e7 --dg-contractions lines,blocks,f16,f16ec --precisions double,float --repeats 10 --ceilings $C -o $R/smoother-$round.json > $L/smoother-$round.txt 2>&1
  echo "smoother $round exit $?" | tee -a $R/session.log
done
grep -E "^  3" $L/smoother-a.txt | head -60 >> $R/session.log
stamp study
P=$B/drivers/tensormg-poisson
solve() {  # name, args...
  local name=$1; shift
  timeout 60 $P --discretization dg --dim 3 --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --record $R/records/$name.json "$@" > $R/records/$name.txt 2>&1
  echo "$name rc=$? $(grep -E 'solve time|L2 error|iterations' $R/records/$name.txt | tr -s ' ' | tr '\n' ';' | cut -c1-220)" | tee -a $R/session.log
}
for round in a b; do
  for k in 5 7; do
    extra=""; [ $k = 7 ] && extra="--restart 10"
    for v in "fp64-cc double lines" "fp64-tc double blocks" "fp32 mixed lines" "fp16 mixed f16" "fp16ec mixed f16ec"; do
      set -- $v; solve q$k-r6-$1-$round -k $k -r 6 --precision $2 --contraction $3 $extra
    done
  done
done
python3 perf/precision_study.py $R/records/*.json --markdown $R/study.md --png $R/fgmres-precision.png >> $R/session.log 2>&1; echo "precision_study rc=$?" >> $R/session.log
tar czf $R/records.tgz -C $R records && rm -rf $R/records
stamp done
