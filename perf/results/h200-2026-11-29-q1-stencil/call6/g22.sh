#!/usr/bin/env bash
# Device call g22 (2026-11-29): 3D Q1 at 1.08e9 DoFs (--cells 4 -r 8) on one H200 with the Q1
# stencil kernels (build-g, f25538e): FMG mixed and double to 1e-9, memory report; Q1 sine L2 error
# at 455M (mixed).
set -u
R=$OUT/r; mkdir -p $R
tar xJf .device/g21.tar.xz
{ nvidia-smi --query-gpu=name,memory.total --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
run() { name=$1; shift; timeout 150 "$@" --record $R/$name.json --overwrite > $R/$name.txt 2>&1; echo "$name exit $? | $(grep -E '^  (DoFs|iterations|relative true residual|L2 error|setup time|solve time|memory)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log; }
P=build-g/drivers/tensormg-poisson
run q1-1e9-mixed $P --dim 3 -k 1 --cells 4 -r 8 --solver fmg --precision mixed --problem one --rtol 1e-9 --repeat 3 --memory-report
run q1-1e9-double $P --dim 3 -k 1 --cells 4 -r 8 --solver fmg --precision double --problem one --rtol 1e-9 --repeat 3 --memory-report
run q1-455M-sine-mixed $P --dim 3 -k 1 --cells 3 -r 8 --solver fmg --precision mixed --problem sine --rtol 1e-9
cd $OUT && tar cJf r.tar.xz r && rm -rf r
