#!/usr/bin/env bash
# Device call g24 (2026-11-29, nvidia-h200-x2): weak and strong scaling of 3D Q1 FMG on 1 and 2
# GPUs with the Q1 stencil kernels (build-g, f25538e), one GPU per rank.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
tar xJf .device/g21.tar.xz
P=build-g/drivers/tensormg-poisson
{ nvidia-smi -L; nvidia-smi topo -m; cat .device/commit.txt; } > $R/topology.txt 2>&1
timeout 200 python3 perf/scaling_study.py --program $P --launcher "mpiexec -n {ranks}" --ranks 1,2 --degrees 1 \
  --solvers fmg --dim 3 --weak-dofs 2e8 --strong-dofs 0 --repeat 3 --times both \
  --run-timeout 60 --title ", one GPU per rank (H200), Q1 stencils" --out $R/weak > $R/weak.log 2>&1
echo "weak exit $?" >> $R/session.log; tail -4 $R/weak.log >> $R/session.log
timeout 150 python3 perf/scaling_study.py --program $P --launcher "mpiexec -n {ranks}" --ranks 1,2 --degrees 1 \
  --solvers fmg --dim 3 --weak-dofs 0 --strong-dofs 5e8 --repeat 3 --times untimed \
  --run-timeout 60 --title ", one GPU per rank (H200), Q1 stencils" --out $R/strong > $R/strong.log 2>&1
echo "strong exit $?" >> $R/session.log; tail -4 $R/strong.log >> $R/session.log
cd $OUT && tar cJf r.tar.xz r && rm -rf r
