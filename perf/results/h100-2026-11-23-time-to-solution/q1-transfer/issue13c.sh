# Third device call for issue 13: the split kernel units and the Q1 by-node transfer on the H100.
b=build-cuda
p=$b/drivers/tensormg-poisson
{
echo "== ctest (Cuda kernels, multigrid, drivers)"
(cd $b && timeout 240 ctest -R "test_multigrid|test_vertex_patch|test_laplace_operator|test_poisson|drivers.poisson|perf\." -E "kill_during" -j4 --timeout 200 2>&1 | grep -E "tests passed|Failed|\*\*\*|Total Test")
echo "== compute-sanitizer"
FILTER='*/Cuda.Q1Transfer*:*/Cuda.Restriction*:*/Cuda.Prolongation*' SANITIZE_TIMEOUT=100 bash perf/sanitize.sh $b $out test_multigrid
echo "== V-cycle study (3D, double and float)"
timeout 120 $b/perf/tensormg-bench-multigrid --study vcycle --dims 3 --degrees 1,3,7 --dofs 1e8 --precisions double,float --cycles 10 -o $out/vcycle-3d.json --overwrite 2>&1 | tail -6
echo "== FMG study (3D, f = 1, 1e-9, setup excluded, median of 3)"
timeout 150 $b/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1,3,7 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $out/fmg-3d.json --overwrite 2>&1 | tail -20
for prec in mixed double; do
  echo "== q1-455m-$prec: --dim 3 -k 1 --cells 3 -r 8 --solver fmg --precision $prec --problem one --rtol 1e-9 --mg-times"
  timeout 100 $p --dim 3 -k 1 --cells 3 -r 8 --solver fmg --precision $prec --problem one --rtol 1e-9 --mg-times 2>&1
done
} 2>&1 | tee "$out/issue13c.log"
