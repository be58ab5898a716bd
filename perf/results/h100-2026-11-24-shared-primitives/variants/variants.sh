# Launch-bound variants of the split column kernel against d9c8466 (old) and HEAD (new), same H100.
set -uo pipefail
out="$OUT"; mkdir -p "$out"
tar -xzf .device/old.tgz -C .device && tar -xzf .device/variants.tgz -C .device
ceil=perf/results/h100-2026-11-21/ceilings.json
for round in 1 2; do
for v in old new varA varB; do
  mg=.device/$v/tensormg-bench-multigrid
  timeout 60 $mg --study smoother --dims 3 --degrees 2,3,4,5,6,7 --dofs 3e7 --ceilings $ceil --repeats 5 \
    -o "$out/s3-$v-$round.json" --overwrite > "$out/s3-$v-$round.txt" 2>&1
  timeout 60 $mg --study smoother --dims 2 --degrees 3,4,5,6 --dofs 3e7 --ceilings $ceil --repeats 5 \
    -o "$out/s2-$v-$round.json" --overwrite > "$out/s2-$v-$round.txt" 2>&1
  echo "$v $round: $(grep -E '^  [23] ' "$out/s3-$v-$round.txt" | awk '{printf "%sD%s %s  ", $1, $2, $10}') $(grep -E '^  [23] ' "$out/s2-$v-$round.txt" | awk '{printf "%sD%s %s  ", $1, $2, $10}')"
done
done
(cd "$out" && tar czf ../r.tgz . && rm -f ./* && mv ../r.tgz .)
