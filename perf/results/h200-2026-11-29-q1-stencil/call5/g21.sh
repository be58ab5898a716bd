#!/usr/bin/env bash
# Device call g21 (2026-11-29): does 2D Q1 mixed FMG at 151M DoFs stagnate (2.3e-9 > 1e-9, call g20)
# with the kernels before the Q1 stencils (build-p, 73734b4) too, and with the new build's
# per-column smoother and atomic operator (build-g, f25538e)? Plus 2D Q1 double and one level less.
set -u
R=$OUT/r; mkdir -p $R
tar xJf .device/g21.tar.xz
{ nvidia-smi --query-gpu=name --format=csv; cat .device/commit.txt; } > $R/env.txt 2>&1
run() { name=$1; shift; timeout 90 "$@" --record $R/$name.json --overwrite > $R/$name.txt 2>&1; echo "$name exit $? | $(grep -E '^  (iterations|relative true residual|solve time)' $R/$name.txt | tr -s ' ' | tr '\n' '|')" >> $R/session.log; }
A="--dim 2 -k 1 --cells 3 -r 12 --solver fmg --problem one --rtol 1e-9"
run 2d-r12-mixed-p build-p/drivers/tensormg-poisson $A --precision mixed
run 2d-r12-mixed-g build-g/drivers/tensormg-poisson $A --precision mixed
run 2d-r12-mixed-g-old-kernels build-g/drivers/tensormg-poisson $A --precision mixed --thread-structure per-column --scatter atomic
run 2d-r12-double-p build-p/drivers/tensormg-poisson $A --precision double
run 2d-r12-double-g build-g/drivers/tensormg-poisson $A --precision double
B="--dim 2 -k 1 --cells 3 -r 11 --solver fmg --problem one --rtol 1e-9"
run 2d-r11-mixed-p build-p/drivers/tensormg-poisson $B --precision mixed
run 2d-r11-mixed-g build-g/drivers/tensormg-poisson $B --precision mixed
cd $OUT && tar cJf r.tar.xz r && rm -rf r
