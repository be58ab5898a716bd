#!/usr/bin/env bash
# Device call g29 (2026-12-07, session 68): the parent-cell transfer (k >= 2, and 2D k = 1) with
# compile-time sizes and FastDivisor instead of run-time divisions (new) against de34da1 (old).
# (1) Cuda transfer tests; (2) Nsight Compute of the finest restriction and prolongation, 3D k = 3,
# float and double, old and new; (3) V-cycle by component, 3D k = 2, 3, 4, 7, both binaries, two
# rounds alternating; (4) FMG solves Q3 57M, Q5, Q7 90.5M double and mixed, both binaries, two
# rounds alternating.
set -u
R=$OUT/r; mkdir -p $R/solves $R/bench $R/ncu
for f in .device/bin29*.tar.xz; do tar xJf $f; done
t0=$(date +%s)
late() { [ $(( $(date +%s) - t0 )) -gt $1 ] && { echo "skipped $2 (time)" >> $R/session.log; return 0; }; return 1; }
( sleep 560; cd $OUT && tar cJf r-partial.tar.xz r ) &
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
B=build-cuda
run() {  # name binary args...
  local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" > $R/solves/$name.txt 2>&1
  echo "$name exit $? |$(grep -E '^  iterations' $R/solves/$name.txt | sed 's/  */ /g; s/(fractional[^)]*)//') |$(grep -E '^  solve time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E '^  setup time' $R/solves/$name.txt | sed 's/  */ /g') |$(grep -E 'relative true residual' $R/solves/$name.txt | sed 's/  */ /g')" >> $R/solves.txt
}
# (1)
timeout 120 $B/tests/test_multigrid --gtest_filter='*Cuda*' > $R/test_multigrid.txt 2>&1
echo "test_multigrid exit $? $(grep -E '^\[  (PASSED|FAILED)' $R/test_multigrid.txt | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >> $R/session.log
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 mpiexec -n 2 $B/tests/test_multigrid_ranks --gtest_filter='*Cuda*Transfers*' > $R/test_multigrid_ranks.txt 2>&1
echo "test_multigrid_ranks np2 exit $? $(grep -E '^\[  (PASSED|FAILED)' $R/test_multigrid_ranks.txt | sort -u | tr '\n' ' ') $(( $(date +%s) - t0 )) s" >> $R/session.log
# (2)
for bin in old new; do
  [ $bin = new ] && M=$B/perf/tensormg-bench-multigrid || M=$B/perf/tensormg-bench-multigrid-old
  for p in float double; do
    timeout 90 ncu --kernel-name-base demangled --kernel-name regex:ParentCellTransfer --launch-skip 0 --launch-count 2 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section InstructionStats \
      --section MemoryWorkloadAnalysis \
      $M --study vcycle --dims 3 --degrees 3 --dofs 5e7 --precisions $p --cycles 1 > $R/ncu/transfer-k3-$p-$bin.txt 2>&1
    echo "ncu $bin $p exit $? $(( $(date +%s) - t0 )) s" >> $R/session.log
    grep -E "ParentCell|Duration|DRAM Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Executed Instructions  |Achieved Occupancy|Registers Per|Grid Size|Block Size" $R/ncu/transfer-k3-$p-$bin.txt | sed 's/ParentCellTransferKernel<\([^>]*\)>.*/ParentCellTransferKernel<\1>/' >> $R/ncu/summary.txt
  done
done
# (3)
for round in a b; do
  late 330 "vcycle $round" && break
  for bin in old new; do
    [ $bin = new ] && M=$B/perf/tensormg-bench-multigrid || M=$B/perf/tensormg-bench-multigrid-old
    timeout 100 $M --study vcycle --dims 3 --degrees 2,3,4,7 --dofs 5e7 --precisions double,float --cycles 10 \
      -o $R/bench/vcycle-$bin-$round.json --overwrite > $R/bench/vcycle-$bin-$round.txt 2>&1
    echo "vcycle $bin $round exit $? $(( $(date +%s) - t0 )) s" >> $R/session.log
  done
done
# (4)
for round in a b; do
  late 420 "fmg $round" && break
  for bin in old new; do
    [ $bin = new ] && P=$B/drivers/tensormg-poisson || P=$B/drivers/tensormg-poisson-old
    for spec in "-k 3 -r 7" "-k 7 -r 6" "-k 5 -r 6"; do
      n=$(echo "$spec" | tr -d ' -')
      for prec in double mixed; do
        run "$n-fmg-$prec-$bin-$round" $P --dim 3 $spec --solver fmg --precision $prec --problem one --rtol 1e-9 --repeat 3
      done
    done
  done
  echo "fmg round $round done $(( $(date +%s) - t0 )) s" >> $R/session.log
done
late 500 "2D vcycle" || timeout 60 $B/perf/tensormg-bench-multigrid --study vcycle --dims 2 --degrees 3,7 --dofs 5e7 --precisions double,float --cycles 10 > $R/bench/vcycle-2d-new.txt 2>&1
late 530 "2D vcycle old" || timeout 30 $B/perf/tensormg-bench-multigrid-old --study vcycle --dims 2 --degrees 3,7 --dofs 5e7 --precisions double,float --cycles 10 > $R/bench/vcycle-2d-old.txt 2>&1
echo "done $(( $(date +%s) - t0 )) s" >> $R/session.log
