#!/usr/bin/env bash
# Device call f5 (2026-11-29): the DG block kernel's gathers/scatters of x and b read with
# ld.global.cg (L2 only; build-l) against d1c7fa5 (build-cuda): one smoothing step, 3D ~3e7 DoF,
# FP64 blocks k = 3, 5, 6, 7 and float f16ec k = 6, 7, two rounds in alternating order.
set -u
R=$OUT/r; mkdir -p $R/logs
tar xJf .device/f3.tar.xz; tar xJf .device/f5.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
for round in a b; do
  for b in build-cuda build-l; do
    [ $round = b ] && b=$([ $b = build-cuda ] && echo build-l || echo build-cuda)
    timeout 120 $b/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 3,5,6,7 --dofs 3e7 --dg-contractions blocks --precisions double --repeats 10 --ceilings $C -o $R/fp64-$b-$round.json > $R/logs/fp64-$b-$round.txt 2>&1
    echo "fp64 $b $round exit $? $(grep -E '^  3' $R/logs/fp64-$b-$round.txt | awk '{print $2, $4, $11}' | tr '\n' ';')" | tee -a $R/session.log
    timeout 120 $b/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 6,7 --dofs 3e7 --dg-contractions f16ec --precisions float --repeats 10 --ceilings $C -o $R/f16ec-$b-$round.json > $R/logs/f16ec-$b-$round.txt 2>&1
    echo "f16ec $b $round exit $? $(grep -E '^  3' $R/logs/f16ec-$b-$round.txt | awk '{print $2, $4, $11}' | tr '\n' ';')" | tee -a $R/session.log
  done
done
tar czf $R/logs.tgz -C $R logs && rm -rf $R/logs
