#!/usr/bin/env bash
# Device call g30 (2026-12-07, session 68): the parent-cell transfer by rows (new, c21c561) against
# de34da1 (old) and 5aa8e7c (v1: compile-time sizes and FastDivisor, thread per point).
# (1) Cuda transfer tests; (2) Nsight Compute of the finest restriction and the next level's, 3D
# k = 3 at 57M DoFs, float and double, old / v1 / new; (3) V-cycle by component at ~1e8, 3D k = 2, 3,
# 4, 7 and 2D k = 3, 7, old and new, two rounds alternating; (4) FMG Q2, Q3, Q4, Q5, Q7 double and
# mixed, old and new, two rounds alternating. Everything under $OUT/r, packed into one archive.
set -u
R=$OUT/r; mkdir -p $R/solves $R/bench $R/ncu
for f in .device/bin30*.tar.xz; do tar xJf $f; done
t0=$(date +%s)
late() { [ $(( $(date +%s) - t0 )) -gt $1 ] && { echo "skipped $2 (time)" >> $R/session.log; return 0; }; return 1; }
( sleep 560; cd $OUT && tar cJf r-partial.tar.xz r ) & watchdog=$!
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
B=build-cuda
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  setup time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E 'relative true residual' $R/solves/$name.txt | sed 's/  */ /g')" >> $R/solves.txt
}
bench() { [ $1 = new ] && echo $B/perf/tensormg-bench-multigrid || echo $B/perf/tensormg-bench-multigrid-$1; }
# (1)
timeout 120 $B/tests/test_multigrid --gtest_filter='*Cuda*' > $R/test_multigrid.txt 2>&1
echo "test_multigrid exit $? $(grep -aE '^\[  (PASSED|FAILED)' $R/test_multigrid.txt | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >> $R/session.log
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 mpiexec -n 2 $B/tests/test_multigrid_ranks --gtest_filter='*Cuda*Transfers*' > $R/test_multigrid_ranks.txt 2>&1
echo "test_multigrid_ranks np2 exit $? $(grep -acE 'OK \]' $R/test_multigrid_ranks.txt) OK lines $(grep -acE 'FAILED' $R/test_multigrid_ranks.txt) FAILED lines $(( $(date +%s) - t0 )) s" >> $R/session.log
timeout 120 compute-sanitizer --tool memcheck $B/tests/test_multigrid --gtest_filter='*Cuda*Transfer*:*Cuda*Restriction*:*Cuda*Prolongation*' > $R/memcheck-transfer.txt 2>&1
echo "memcheck transfer tests exit $? $(grep -aE 'ERROR SUMMARY' $R/memcheck-transfer.txt) $(( $(date +%s) - t0 )) s" >> $R/session.log
# (2)
for bin in old v1 new; do
  for p in float double; do
    timeout 90 ncu --kernel-name-base demangled --kernel-name regex:ParentCellTransfer --launch-skip 0 --launch-count 2 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section InstructionStats \
      --section MemoryWorkloadAnalysis \
      $(bench $bin) --study vcycle --dims 3 --degrees 3 --dofs 1e8 --precisions $p --cycles 1 > $R/ncu/transfer-k3-$p-$bin.txt 2>&1
    echo "ncu $bin $p exit $? $(( $(date +%s) - t0 )) s" >> $R/session.log
    echo "== $bin $p" >> $R/ncu/summary.txt
    grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Executed Instructions  |Achieved Occupancy|Registers Per|Grid Size" $R/ncu/transfer-k3-$p-$bin.txt >> $R/ncu/summary.txt
  done
done
# (3)
for round in a b; do
  late 300 "vcycle $round" && break
  for bin in old new; do
    timeout 100 $(bench $bin) --study vcycle --dims 3 --degrees 2,3,4,7 --dofs 1e8 --precisions double,float --cycles 10 \
      -o $R/bench/vcycle-$bin-$round.json --overwrite > $R/bench/vcycle-$bin-$round.txt 2>&1
    echo "vcycle $bin $round exit $? $(( $(date +%s) - t0 )) s" >> $R/session.log
    timeout 60 $(bench $bin) --study vcycle --dims 2 --degrees 3,7 --dofs 1e8 --precisions double,float --cycles 10 \
      -o $R/bench/vcycle2d-$bin-$round.json --overwrite > $R/bench/vcycle2d-$bin-$round.txt 2>&1
  done
done
# (4)
for round in a b; do
  late 430 "fmg $round" && break
  for bin in old new; do
    [ $bin = new ] && P=$B/drivers/tensormg-poisson || P=$B/drivers/tensormg-poisson-old
    for spec in "-k 3 -r 7" "-k 7 -r 6" "-k 2 -r 8" "-k 4 -r 7" "-k 5 -r 6"; do
      n=$(echo "$spec" | tr -d ' -')
      for prec in double mixed; do
        run "$n-fmg-$prec-$bin-$round" $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3
      done
    done
  done
  echo "fmg round $round done $(( $(date +%s) - t0 )) s" >> $R/session.log
done
echo "done $(( $(date +%s) - t0 )) s" >> $R/session.log
cat $R/session.log $R/ncu/summary.txt; grep -h "s/cycle" $R/bench/vcycle*-a.txt; cat $R/solves.txt
kill $watchdog 2>/dev/null
cd $OUT && tar cJf r.tar.xz r && rm -rf r r-partial.tar.xz
