# Device session for issue 13 (time to solution). Sourced from perf/gpu_session.sh --extra; $out set.
p=build-cuda/drivers/tensormg-poisson
run() { local name="$1"; shift; echo "== $name: $*"; local t0=$(date +%s.%N); timeout 120 "$p" "$@" > "$out/$name.txt" 2>&1; local rc=$?; local t1=$(date +%s.%N); cat "$out/$name.txt"; python3 -c "print('exit $rc wall %.2f s' % ($t1-$t0))"; }
{
# The case first, then double; the largest Q3 and Q1; CG+Jacobi and FMG at the anchor's mesh.
run q7-305m-mixed --dim 3 -k 7 --cells 3 -r 5 --solver fmg --precision mixed --problem one --rtol 1e-9 --mg-times
run q7-305m-double --dim 3 -k 7 --cells 3 -r 5 --solver fmg --precision double --problem one --rtol 1e-9 --mg-times
run q3-192m-mixed --dim 3 -k 3 --cells 3 -r 6 --solver fmg --precision mixed --problem one --rtol 1e-9 --mg-times
run q3-192m-double --dim 3 -k 3 --cells 3 -r 6 --solver fmg --precision double --problem one --rtol 1e-9 --mg-times
run q1-455m-mixed --dim 3 -k 1 --cells 3 -r 8 --solver fmg --precision mixed --problem one --rtol 1e-9 --mg-times
run q1-455m-double --dim 3 -k 1 --cells 3 -r 8 --solver fmg --precision double --problem one --rtol 1e-9 --mg-times
run q2-7m-fmg-double --dim 3 -k 2 --cells 3 -r 5 --solver fmg --precision double --problem one --rtol 1e-9
run q2-7m-fmg-mixed --dim 3 -k 2 --cells 3 -r 5 --solver fmg --precision mixed --problem one --rtol 1e-9
run q2-7m-cg-jacobi --dim 3 -k 2 --cells 3 -r 5 --solver cg --preconditioner jacobi --problem one --rtol 1e-9
run q2-7m-cg-mg --dim 3 -k 2 --cells 3 -r 5 --solver cg --preconditioner mg --precision mixed --problem one --rtol 1e-9
run q7-305m-sine-mixed --dim 3 -k 7 --cells 3 -r 5 --solver fmg --precision mixed --problem sine --rtol 1e-9
echo "== anchor: cuSPARSE CG + Jacobi, 3D Q2, 96 cells per direction (the mesh of the q2-7m runs)"
timeout 120 python3 .device/anchors/cg_anchor.py 3 2 96 2>&1
} 2>&1 | tee "$out/issue13.log"
