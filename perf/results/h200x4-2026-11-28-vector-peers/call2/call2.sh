#!/usr/bin/env bash
# Device call 2 (nvidia-h200-x4): issue 14's weak and strong scaling studies with the code of
# commit c6c4187 (vector ghost exchanges through peer memory), one GPU per rank.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
tar xJf .device/bins.tar.xz
P=build-cuda/drivers/tensormg-poisson
{ nvidia-smi -L; nvidia-smi topo -m; } > $R/topology.txt 2>&1
timeout 330 python3 perf/scaling_study.py --program $P --launcher "mpiexec -n {ranks}" --ranks 1,2,4 --degrees 3,7,1 \
  --solvers fmg,gmres --dim 3 --weak-dofs 2e8 --strong-dofs 0 --repeat 3 --times both --extra "--restart 10" \
  --run-timeout 60 --title ", one GPU per rank (H200)" --out $R/weak > $R/weak.log 2>&1
echo "weak exit $?"; tail -4 $R/weak.log
timeout 210 python3 perf/scaling_study.py --program $P --launcher "mpiexec -n {ranks}" --ranks 1,2,4 --degrees 3,7,1 \
  --solvers fmg,gmres --dim 3 --weak-dofs 0 --strong-dofs 5e8 --repeat 3 --times untimed --extra "--restart 10" \
  --run-timeout 60 --title ", one GPU per rank (H200)" --out $R/strong > $R/strong.log 2>&1
echo "strong exit $?"; tail -4 $R/strong.log
tar cJf $OUT/call2.tar.xz -C $OUT r && rm -rf $R
