# Second device call for issue 13: the two tests fixed after the first call, compute-sanitizer on
# the new kernels, and the FMG and V-cycle studies with the new default smoothing order.
b=build-cuda
{
echo "== rerun: test_multigrid (Cuda) and the kill test"
(cd $b && ctest -R "test_multigrid.Cuda|kill_during_write" --output-on-failure -j2 2>&1 | grep -E "Test +#|tests passed|kills,|Failure|FAILED")
echo "== compute-sanitizer"
FILTER='*/Cuda.Interpolation*:*/Cuda.ErrorsOfZero*:*/Cuda.InhomogeneousDirichletRates' SANITIZE_TIMEOUT=120 bash perf/sanitize.sh $b $out test_poisson
FILTER='*/Cuda.EveryDegree*' SANITIZE_TIMEOUT=150 bash perf/sanitize.sh $b $out test_vertex_patch
FILTER='*/Cuda.MixedPrecision*:*/Cuda.ForwardSmoothing*' SANITIZE_TIMEOUT=120 bash perf/sanitize.sh $b $out test_multigrid
echo "== FMG study (3D, f = 1, 1e-9, setup excluded, median of 3)"
timeout 150 $b/perf/tensormg-bench-multigrid --study fmg --dims 3 --degrees 1,3,7 --precisions double,mixed --max-dofs 1.4e8 --problem one --repeats 3 -o $out/fmg-3d.json --overwrite 2>&1 | tail -12
echo "== V-cycle study (3D, double and float)"
timeout 120 $b/perf/tensormg-bench-multigrid --study vcycle --dims 3 --degrees 1,3,7 --dofs 1e8 --precisions double,float --cycles 10 -o $out/vcycle-3d.json --overwrite 2>&1 | tail -12
} 2>&1 | tee "$out/issue13b.log"
