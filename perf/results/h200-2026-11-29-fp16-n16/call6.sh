#!/usr/bin/env bash
# Device call f6 (2026-11-29): float blocks of 16 under LaunchBounds<256, 3> (85 registers, 3 teams
# an SM; build-3) against <256, 4> (64 registers, 4 teams; d1c7fa5, build-cuda = the binaries of
# f3): one float smoothing step, 3D ~3e7 DoF, f16/f16ec k = 5, 6, 7, two rounds alternating.
set -u
R=$OUT/r; mkdir -p $R
tar xJf .device/f3.tar.xz; tar xJf .device/f6.tar.xz
ldconfig -p | grep -q libcudart.so.13 || export LD_LIBRARY_PATH=$PWD/build-cuda/lib
C=.device/ceilings-h200.json
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
for round in a b; do
  for b in build-cuda build-3; do
    [ $round = b ] && b=$([ $b = build-cuda ] && echo build-3 || echo build-cuda)
    timeout 120 $b/perf/tensormg-bench-multigrid --study dg-smoother --dims 3 --degrees 5,6,7 --dofs 3e7 --dg-contractions f16,f16ec --precisions float --repeats 10 --ceilings $C -o $R/$b-$round.json > $R/$b-$round.txt 2>&1
    echo "$b $round exit $? $(grep -E '^  3' $R/$b-$round.txt | awk '{print $2, $4, $8, $11}' | tr '\n' ';')" >> $R/session.log
  done
done
rm -f $R/*.txt
