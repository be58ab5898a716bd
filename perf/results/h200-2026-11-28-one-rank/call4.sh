#!/usr/bin/env bash
# Device call 4 (nvidia-h200): issue 14's "the single-rank path no slower": FMG on one GPU with the
# binary of 07a864a (before this stop) and of 088b82f, alternating, median of 3 solves each.
set -u
R=$OUT/r; mkdir -p $R
tar xJf .device/bins.tar.xz
P=build-cuda/drivers/tensormg-poisson; B=.device/bin/tensormg-poisson-07a864a
nvidia-smi -L > $R/gpu.txt
for spec in "-k 7 -r 6" "-k 3 -r 7" "-k 1 -r 8"; do
  for round in 1 2; do
    for bin in before after; do
      X=$P; [ $bin = before ] && X=$B
      name="fmg$(echo "$spec" | tr -d ' -')-$bin-$round"
      timeout 60 $X --dim 3 $spec --solver fmg --problem one --rtol 1e-9 --repeat 3 --record $R/$name.json --overwrite > $R/$name.txt 2>&1
      echo "$name exit $? | $(grep -E '^  (DoFs|iterations|solve time)' $R/$name.txt | tr -s ' ' | cut -c1-60 | tr '\n' '|')"
    done
  done
done
tar cJf $OUT/call4.tar.xz -C $OUT r && rm -rf $R
