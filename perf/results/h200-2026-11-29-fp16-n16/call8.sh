#!/usr/bin/env bash
# Device call f8 (2026-11-29): the DG block kernel's passes over the patch values in batches of
# four loads (build-b, commit in commit.txt) against d1c7fa5 (build-cuda, the binaries of f3):
# Cuda tests + sanitizers of the new build; one smoothing step FP64 blocks k = 3, 5, 6, 7 and float
# f16/f16ec k = 5, 6, 7, two rounds alternating; FGMRES Q7 134M (FP64 CC/TC, FP32, FP16 EC), Q6.
set -u
R=$OUT/r; mkdir -p $R/logs $R/records
t0=$(date +%s); stamp() { echo "=== $1 ($(( $(date +%s) - t0 )) s)" >> $R/session.log; }
tar xJf .device/f8base.tar.xz; tar xJf .device/f8.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
C=.device/ceilings-h200.json; L=$R/logs
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
stamp tests
for t in test_dg_vertex_patch test_dg_laplace; do
  timeout 240 build-b/tests/$t --gtest_filter='*Cuda*' > $L/$t.txt 2>&1
  echo "$t exit $? $(grep -E '^\[  (PASSED|FAILED) ' $L/$t.txt | tr '\n' ' ')" >> $R/session.log
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
timeout 200 $CS --tool memcheck build-b/tests/test_dg_vertex_patch --gtest_filter='*Cuda.FP16*:*Cuda.Padded*' > $L/memcheck-dg.txt 2>&1; echo "memcheck dg exit $? $(tail -1 $L/memcheck-dg.txt)" >> $R/session.log
timeout 200 $CS --tool racecheck build-b/tests/test_dg_vertex_patch --gtest_filter='*Cuda.FP16*:*Cuda.N16*' > $L/racecheck-dg.txt 2>&1; echo "racecheck dg exit $? $(tail -1 $L/racecheck-dg.txt)" >> $R/session.log
stamp smoother
for round in a b; do
  for b in build-cuda build-b; do
    [ $round = b ] && b=$([ $b = build-cuda ] && echo build-b || echo build-cuda)
    timeout 120 $b/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3,5,6,7 --dofs 3e7 --dg-contractions blocks --precisions double --repeats 10 --ceilings $C -o $R/fp64-$b-$round.json > $L/fp64-$b-$round.txt 2>&1
    echo "fp64 $b $round exit $? $(grep -E '^  3' $L/fp64-$b-$round.txt | awk '{print $2, $4, $11}' | tr '\n' ';')" >> $R/session.log
    timeout 120 $b/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 5,6,7 --dofs 3e7 --dg-contractions f16,f16ec --precisions float --repeats 10 --ceilings $C -o $R/f16-$b-$round.json > $L/f16-$b-$round.txt 2>&1
    echo "f16 $b $round exit $? $(grep -E '^  3' $L/f16-$b-$round.txt | awk '{print $2, $4, $8, $11}' | tr '\n' ';')" >> $R/session.log
  done
done
stamp solves
solve() {  # build name args...
  local b=$1 name=$2; shift 2
  timeout 60 $b/drivers/tensormg-poisson --discretization dg --dim 3 --solver fgmres --preconditioner mg --problem sine --rtol 1e-8 --record $R/records/$name.json "$@" > $R/records/$name.txt 2>&1
  echo "$name rc=$? $(grep -E 'solve time|L2 error|iterations' $R/records/$name.txt | tr -s ' ' | tr '\n' ';' | cut -c1-160)" >> $R/session.log
}
for round in a b; do
  for v in "fp64-cc double lines" "fp64-tc double blocks" "fp32 mixed lines" "fp16ec mixed f16ec"; do
    set -- $v; solve build-b q7-r6-$1-$round -k 7 -r 6 --restart 10 --precision $2 --contraction $3
  done
  for v in "fp64-tc double blocks" "fp16ec mixed f16ec"; do
    set -- $v; solve build-b q6-r6-$1-$round -k 6 -r 6 --precision $2 --contraction $3
  done
done
python3 perf/precision_study.py $R/records/*.json --markdown $R/study.md >> $R/session.log 2>&1
tar czf $R/records.tgz -C $R records && rm -rf $R/records
tar czf $R/logs.tgz -C $R logs && rm -rf $R/logs
(cd $R && tar czf smoother-json.tgz *.json && rm -f *.json)
stamp done
