# A/B in one call: the kernels before (.device/old, commit d9c8466) and after this change, same GPU,
tar -xzf .device/old.tgz -C .device
# back to back. Sourced by perf/gpu_session.sh --extra; $out, $cap set there.
ceil=perf/results/h100-2026-11-21/ceilings.json
for v in old new; do
  if [ $v = old ]; then op=.device/old/tensormg-bench-operator; mg=.device/old/tensormg-bench-multigrid;
  else op=build-cuda/perf/tensormg-bench-operator; mg=build-cuda/perf/tensormg-bench-multigrid; fi
  timeout 90 $op --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 6e7 --precisions double --ceilings $ceil --spmv-max-gib 0 \
    --repeats 10 --output "$out/operator-$v.json" --overwrite > "$out/operator-$v.txt" 2>&1
  echo "operator $v exit $?"
  timeout 100 $mg --study smoother --dims 3 --degrees 1,2,3,4,5,6,7,8 --dofs 3e7 --ceilings $ceil --repeats 5 \
    -o "$out/smoother-$v.json" --overwrite > "$out/smoother-$v.txt" 2>&1
  echo "smoother $v exit $?"
  timeout 60 $mg --study smoother --dims 2 --degrees 1,2,3,4,5,6,7,8,9,10 --dofs 3e7 --ceilings $ceil --repeats 5 \
    -o "$out/smoother2d-$v.json" --overwrite > "$out/smoother2d-$v.txt" 2>&1
  echo "smoother 2D $v exit $?"
  timeout 60 $mg --study smoother --dims 3 --degrees 2,3,4,5,6,7 --dofs 3e7 --precisions float --ceilings $ceil --repeats 5 \
    -o "$out/smootherf-$v.json" --overwrite > "$out/smootherf-$v.txt" 2>&1
  echo "smoother float $v exit $?"
  timeout 60 $mg --study vcycle --dims 3 --degrees 1,3,7 --dofs 5e7 --precisions double,float --cycles 10 \
    -o "$out/vcycle-$v.json" --overwrite > "$out/vcycle-$v.txt" 2>&1
  echo "vcycle $v exit $?"
done
for f in operator smoother smoother2d smootherf vcycle; do echo "== $f old"; grep -v "^#" "$out/$f-old.txt" | tail -n 22; echo "== $f new"; grep -v "^#" "$out/$f-new.txt" | tail -n 22; done
