#!/usr/bin/env bash
# The VM (2-core AMD EPYC, OpenMP build, default flags), 2026-12-07: the parent-cell transfer of
# 8a12a0e (new) against de34da1 (old): bench-multigrid built from the same tree with each version
# of multigrid/transfer_kernels.hpp (the only difference). V-cycle: two rounds alternating; FMG:
# one round.
export OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads
for r in a b; do for b in old new; do
  bench-multigrid-$b --study vcycle --dims 3 --degrees 2,3,4,7 --dofs 2e6 --precisions double,float --cycles 5 -o vcycle-$b-$r.json --overwrite > vcycle-$b-$r.txt
done; done
for b in old new; do
  bench-multigrid-$b --study fmg --dims 3 --degrees 2,3,7 --precisions double,mixed --max-dofs 2e6 --problem one --repeats 3 -o fmg-$b.json --overwrite > fmg-$b.txt
done
