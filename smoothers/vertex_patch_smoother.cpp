#include "smoothers/vertex_patch_smoother.hpp"

#include <algorithm>
#include <sstream>
#include <type_traits>

#include "core/error.hpp"
#include "core/profiling.hpp"
#include "smoothers/patch_color.hpp"
#include "smoothers/vertex_patch_q1.hpp"

namespace tensormg {

template <class Number, class ExecSpace>
VertexPatchSmoother<Number, ExecSpace>::VertexPatchSmoother(std::shared_ptr<const operator_type> op,
                                                             VertexPatchOptions options)
    : op_(std::move(op)), options_(options) {
  const auto& layout = op_->layout();
  const auto& mesh = layout.mesh();
  int ranks = 1;
  MPI_Comm_size(mesh.comm(), &ranks);
  distributed_ = ranks > 1;
  const int dim = layout.dim(), k = layout.degree();
  kernels_ = patch_kernels<Number, ExecSpace>(dim, k);

  const auto& opts = op_->options();
  for (int d = 0; d < 3; ++d) matrices_1d_[d] = patch_matrices_1d(k, d < dim ? mesh.h()[d] : 1.0);
  const int stride = PatchKernelArgs<Number, ExecSpace>::matrix_stride(k);
  // The reference patch (cell length 1) whose matrices the per-column kernels use for every
  // direction: M_d = h_d M̂, A_d = Â / h_d, S_d = Ŝ / √h_d, λ_d = λ̂ / h_d² (PatchKernelArgs).
  const PatchMatrices1D ref = patch_matrices_1d(k, 1.0);
  // Per direction, then the reference patch as block dim (PatchKernelArgs::matrices).
  std::vector<Number> host(std::size_t(stride) * (dim + 1));
  for (int d = 0; d <= dim; ++d) {
    const auto& m = d < dim ? matrices_1d_[d] : ref;
    Number* out = host.data() + d * stride;
    for (int i = 0; i < m.n * m.n; ++i) {
      out[i] = Number(m.mass[i]);
      out[m.n * m.n + i] = Number(m.stiffness[i]);
    }
    for (int i = 0; i < m.ni * m.ni; ++i) out[2 * m.n * m.n + i] = Number(m.eigenvectors[i]);
    for (int i = 0; i < m.ni; ++i) out[2 * m.n * m.n + m.ni * m.ni + i] = Number(m.eigenvalues[i]);
  }
  reference_.assign(host.begin() + std::size_t(stride) * dim, host.end());
  matrices_ = decltype(matrices_)("tensormg::smoother::vertex_patch::matrices", host.size());
  Kokkos::deep_copy(matrices_, Kokkos::View<const Number*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()));
  {
    const int ni = ref.ni, nz = dim == 3 ? ni : 1;
    const double a = opts.laplace_coefficient, c = opts.mass_coefficient;
    double h[3] = {1, 1, 1}, volume = 1;
    for (int d = 0; d < dim; ++d) volume *= (h[d] = mesh.h()[d]);
    for (int d = 0; d < 3; ++d) alpha_[d] = d < dim ? a * volume / (h[d] * h[d]) : 0.0;
    gamma_ = c * volume;
    volume_ = volume;
    // The fast diagonalization's diagonal ((a Λ + c) V)^{-1} on the ni^d box, in double.
    std::vector<Number> diag(std::size_t(ni) * ni * nz);
    for (int i2 = 0; i2 < nz; ++i2)
      for (int i1 = 0; i1 < ni; ++i1)
        for (int i0 = 0; i0 < ni; ++i0) {
          const double lambda = ref.eigenvalues[i0] / (h[0] * h[0]) + ref.eigenvalues[i1] / (h[1] * h[1]) +
                                (dim == 3 ? ref.eigenvalues[i2] / (h[2] * h[2]) : 0.0);
          diag[i0 + ni * (i1 + ni * i2)] = Number(1.0 / ((a * lambda + c) * volume));
        }
    inverse_diagonal_ = decltype(inverse_diagonal_)("tensormg::smoother::vertex_patch::inverse_diagonal", diag.size());
    Kokkos::deep_copy(inverse_diagonal_, Kokkos::View<const Number*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(diag.data(), diag.size()));
  }
  if (options_.solver == LocalSolver::inverse) {
    const auto inv = dense_patch_inverse(dim, matrices_1d_, opts.laplace_coefficient, opts.mass_coefficient);
    std::vector<Number> inv_n(inv.begin(), inv.end());
    inverse_ = decltype(inverse_)("tensormg::smoother::vertex_patch::inverse", inv_n.size());
    Kokkos::deep_copy(inverse_, Kokkos::View<const Number*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(inv_n.data(), inv_n.size()));
  }

  collectively(op_->layout().mesh().comm(), [&] {  // the same options on every rank: one message
    TENSORMG_CHECK(options_.patches_per_team >= 0 && options_.patches_per_team <= 64,
                   "patches per team must be in 0..64 (0 = automatic), given " << options_.patches_per_team);
    TENSORMG_CHECK(options_.threads_per_patch >= 0 && options_.threads_per_patch <= 1024,
                   "threads per patch must be in 0..1024 (0 = automatic), given " << options_.threads_per_patch);
    TENSORMG_CHECK(options_.residual != PatchResidual::boundary || options_.kernel != PatchKernel::global,
                   "the boundary patch residual needs the patch-local residual of the fused or separate smoother "
                   "kernel, not the global one");
  });
  const bool on_device = !runs_on_host<ExecSpace>();
  const PatchTuning& row = kernels_.tuning;  // smoothers/vertex_patch_tuning.hpp
  // Thread structure: a thread per patch where the row says (k = 1) and nothing asks for the
  // team kernels' choices (a kernel other than fused, the dense inverse, a team shape).
  if (options_.structure == ThreadStructure::automatic) {
    const bool team_options = options_.kernel == PatchKernel::global || options_.kernel == PatchKernel::separate ||
                              options_.solver == LocalSolver::inverse || options_.patches_per_team != 0 ||
                              options_.threads_per_patch != 0;
    options_.structure = team_options ? ThreadStructure::per_column
                         : row.per_patch ? (row.per_line ? ThreadStructure::per_line : ThreadStructure::per_patch)
                         : row.lanes && kernels_.launch_lanes ? ThreadStructure::lanes
                                                              : ThreadStructure::per_column;
  }
  if (options_.structure == ThreadStructure::lanes) {
    collectively(mesh.comm(), [&] {
      TENSORMG_CHECK(kernels_.launch_lanes != nullptr || k == 1,
                     "the lanes thread structure puts patches in the lanes of a CPU vector register: it runs on "
                     "the host; on a GPU choose per-column or per-dof");
      TENSORMG_CHECK(k >= 2, "the lanes thread structure smooths patches of Q2 and above; Q1 patches (one unknown) "
                             "run per patch or per line");
      TENSORMG_CHECK(options_.kernel == PatchKernel::automatic || options_.kernel == PatchKernel::fused,
                     "the lanes thread structure is a fused kernel; the " << to_string(options_.kernel)
                                                                           << " smoother kernel needs per-column or per-dof");
      TENSORMG_CHECK(options_.solver == LocalSolver::fast_diagonalization,
                     "the lanes thread structure solves by fast diagonalization; the dense inverse needs per-column or "
                     "per-dof");
      TENSORMG_CHECK(options_.patches_per_team == 0 && options_.threads_per_patch == 0,
                     "the lanes thread structure runs threads without teams; patches per team and threads per patch "
                     "must be 0 (automatic)");
    });
    options_.kernel = PatchKernel::fused;
    options_.patches_per_team = options_.threads_per_patch = 1;
    if (options_.residual == PatchResidual::automatic)
      options_.residual = row.boundary_residual ? PatchResidual::boundary : PatchResidual::full;
    if (distributed_) build_halo_box();
    return;
  }
  if (options_.structure == ThreadStructure::per_patch || options_.structure == ThreadStructure::per_line) {
    const std::string name = to_string(options_.structure);
    collectively(mesh.comm(), [&] {
      TENSORMG_CHECK(k == 1, "the " << name << " thread structure smooths Q1 patches (one unknown each); Q" << k
                                    << " needs per-column or per-dof");
      TENSORMG_CHECK(options_.kernel == PatchKernel::automatic || options_.kernel == PatchKernel::fused,
                     "the " << name << " thread structure is a fused kernel; the " << to_string(options_.kernel)
                            << " smoother kernel needs per-column or per-dof");
      TENSORMG_CHECK(options_.solver == LocalSolver::fast_diagonalization,
                     "the " << name << " thread structure divides by the patch's 1 x 1 matrix; choose the "
                     "fast-diagonalization local solver (the same division) or another thread structure");
      TENSORMG_CHECK(options_.patches_per_team == 0 && options_.threads_per_patch == 0,
                     "the " << name << " thread structure runs threads without teams; patches per team and "
                     "threads per patch must be 0 (automatic)");
    });
    options_.kernel = PatchKernel::fused;
    options_.patches_per_team = options_.threads_per_patch = 1;
    if (options_.residual == PatchResidual::automatic)
      options_.residual = row.boundary_residual ? PatchResidual::boundary : PatchResidual::full;
    q1::directions(mesh, q1_);
    q1_inverse_diagonal_ = Number(1.0 / q1::interior_diagonal(dim, q1_, opts.laplace_coefficient, opts.mass_coefficient));
    if (distributed_) build_halo_box();
    return;
  }
  const bool per_column = options_.structure == ThreadStructure::per_column;
  // Per column on the device, where the row says so (3D from k = 2 on): a thread per C interior
  // columns; the solve's steps keep every thread busy, the residual's wider steps loop.
  if (options_.threads_per_patch == 0) {
    options_.threads_per_patch = kernels_.threads_per_patch(per_column);
    if (on_device && per_column && row.interior_threads) options_.threads_per_patch = kernels_.interior_threads_per_patch();
  }
  const int threads = options_.threads_per_patch;
  // Defaults chosen by measurement (H100, perf/results/h100-2026-11-21-multigrid, perf/README.md):
  // with the full residual the fused kernel unless its scratch does not fit the fast (level 0,
  // shared memory) team scratch, where the global residual + solve kernel (whose scratch fits) was
  // faster (3D double k >= 8; k = 7 fits the 48 KB of shared memory a block has,
  // DeviceTraits::fast_scratch_bytes); with the boundary residual (the rows' default) fused
  // everywhere (below); on the host fused.
  const auto fits_fast = [&](PatchStage stage, int ppt) { return kernels_.scratch_level(stage, per_column, ppt, threads) == 0; };
  // The Boundary residual (paper 000 §4.1.3) needs the patch-local residual. Automatic takes the
  // row's choice unless the global kernel was asked for; a boundary residual keeps the automatic
  // kernel fused even where its scratch does not fit the fast scratch (3D FP64 k = 8 on the H200:
  // fused + boundary from global memory 1.64 GDoF/s against 1.25 for the global kernel,
  // h200-2026-11-28-boundary-residual).
  if (options_.residual == PatchResidual::automatic)
    options_.residual =
        row.boundary_residual && options_.kernel != PatchKernel::global ? PatchResidual::boundary : PatchResidual::full;
  const bool boundary = options_.residual == PatchResidual::boundary;
  if (options_.kernel == PatchKernel::automatic)
    options_.kernel = on_device && !boundary && !fits_fast(PatchStage::residual, 1) ? PatchKernel::global : PatchKernel::fused;
  const PatchStage biggest = options_.kernel == PatchKernel::global ? PatchStage::solve : PatchStage::residual;
  // Patches per team: as many as keep a team near the row's team_threads (float: its own target
  // where the row has one) within the fast scratch; one on the host.
  if (options_.patches_per_team == 0) {
    int ppt = 1;
    if (on_device) {
      const int column_target =
          std::is_same_v<Number, float> && row.float_team_threads > 0 ? row.float_team_threads : row.team_threads;
      ppt = std::clamp((per_column ? column_target : row.point_team_threads) / threads, 1, 64);
      while (ppt > 1 && !fits_fast(biggest, ppt)) --ppt;
    }
    options_.patches_per_team = ppt;
  }
  if (options_.kernel != PatchKernel::fused) residual_ = op_->make_vector("smoother_residual");
  if (options_.kernel == PatchKernel::global) product_ = op_->make_vector("smoother_product");
  if (distributed_) build_halo_box();
}

template <class Number, class ExecSpace>
void VertexPatchSmoother<Number, ExecSpace>::build_halo_box() {
  const auto& layout = op_->layout();
  const auto& mesh = layout.mesh();
  const int dim = layout.dim(), k = layout.degree();
  // Nodes: a rank owns its cells' nodes but those of its upper faces inside the brick; its halo
  // box is the closure of its cells grown by one cell per side.
  const auto ranges = [&](int rank, GridRange& owned, GridRange& box) {
    const auto& g = mesh.rank_grid();
    const std::array<int, 3> p{rank % g[0], (rank / g[0]) % g[1], rank / (g[0] * g[1])};
    bool empty = false;
    for (int d = 0; d < 3; ++d) {
      if (d >= dim) {
        owned.lo[d] = box.lo[d] = 0;
        owned.hi[d] = box.hi[d] = 1;
        continue;
      }
      const auto r = mesh.cell_range(d, p[d]);
      const global_index n = mesh.n_cells()[d];
      empty = empty || r[1] == r[0];
      owned.lo[d] = r[0] * k;
      owned.hi[d] = r[1] * k + (r[1] == n ? 1 : 0);
      box.lo[d] = std::max<global_index>(r[0] - 1, 0) * k;
      box.hi[d] = std::min<global_index>(r[1] + 1, n) * k + 1;
    }
    if (empty)
      for (int d = 0; d < dim; ++d) owned.hi[d] = owned.lo[d], box.hi[d] = box.lo[d];
  };
  halo_ = HaloBox<ExecSpace>(mesh.comm(), dim, 1, ranges, 29, options_.transport);
  NodeBox& hb = halo_box_;
  hb.dim = dim;
  hb.degree = k;
  for (int d = 0; d < 3; ++d) {
    hb.global_nodes[d] = layout.box().global_nodes[d];
    hb.offset[d] = halo_.lower(d);
    hb.n[d] = hb.o[d] = halo_.extent(d);
    hb.cells[d] = d < dim ? (hb.n[d] > 0 ? (hb.n[d] - 1) / k : 0) : 1;
  }
  hb.n_owned = halo_.size();
  split_ = halo_.overlap_split(hb.cells, options_.overlap, k, mesh.comm());
  x_box_ = decltype(x_box_)("tensormg::smoother::halo_box::x", hb.n_owned);
  b_box_ = decltype(b_box_)("tensormg::smoother::halo_box::b", hb.n_owned);
  if (options_.kernel != PatchKernel::fused) r_box_ = decltype(r_box_)("tensormg::smoother::halo_box::r", hb.n_owned);
}

template <class Number, class ExecSpace>
void VertexPatchSmoother<Number, ExecSpace>::smooth_distributed(vector_type& x, const vector_type& b, SweepOrder order) const {
  exchange_([&] {
    halo_.copy_in(x.view(), x_box_);
    halo_.copy_in(b.view(), b_box_);
    halo_.refresh(x_box_);
    halo_.refresh(b_box_);
  });
  const int colors = n_colors(), dim = op_->layout().dim();
  for (int i = 0; i < colors; ++i) {
    const int color = patch_color(dim, i, order == SweepOrder::reverse);
    if (options_.kernel == PatchKernel::global) {  // the global residual, then into the halo box
      halo_.copy_out(x.view(), x_box_);
      op_->vmult(product_, x);
      residual_.copy_from(b);
      residual_.add(Number(-1), product_);
      exchange_([&] {
        halo_.copy_in(residual_.view(), r_box_);
        halo_.refresh(r_box_);
      });
    }
    if (i + 1 == colors) {  // the last colour's halo values are not needed
      if (halo_box_.n_owned > 0) launch_color(x_box_, b_box_, r_box_, halo_box_, color);
    } else if (split_.overlap) {
      for (const auto& w : split_.boundary) launch_color(x_box_, b_box_, r_box_, halo_box_, color, w);
      exchange_([&] { halo_.start_refresh(x_box_); });
      launch_color(x_box_, b_box_, r_box_, halo_box_, color, split_.interior);
      exchange_([&] { halo_.finish_refresh(x_box_); });
    } else {
      if (halo_box_.n_owned > 0) launch_color(x_box_, b_box_, r_box_, halo_box_, color);
      exchange_([&] { halo_.refresh(x_box_); });
    }
  }
  exchange_([&] { halo_.copy_out(x.view(), x_box_); });
}

template <class Number, class ExecSpace>
void VertexPatchSmoother<Number, ExecSpace>::smooth_color(vector_type& x, const vector_type& b, int color) const {
  TENSORMG_ASSERT(color >= 0 && color < n_colors(), "color " << color << " of " << n_colors());
  TENSORMG_CHECK(!distributed_, "smooth_color is for one rank; smooth() works on any number");
  if (options_.kernel == PatchKernel::global) {
    op_->vmult(product_, x);
    residual_.copy_from(b);
    residual_.add(Number(-1), product_);
  }
  launch_color(x.view(), b.view(), residual_.view(), op_->layout().box(), color);
}

template <class Number, class ExecSpace>
void VertexPatchSmoother<Number, ExecSpace>::launch_color(const view_type& x, const view_type& b, const view_type& r,
                                                          const NodeBox& box, int color, const PatchWindow& window,
                                                          bool pair) const {
  PatchKernelArgs<Number, ExecSpace> args;
  args.window = window;
  args.x = x;
  args.b = b;
  args.r = r;
  args.matrices = matrices_;
  args.inverse = inverse_;
  args.host_reference = reference_.data();
  for (int d = 0; d < 3; ++d) args.alpha[d] = Number(alpha_[d]);
  args.alpha0_over_alpha1 = Number(alpha_[1] != 0 ? alpha_[0] / alpha_[1] : 0.0);
  args.gamma = Number(gamma_);
  args.volume = Number(volume_);
  args.box = box;
  args.laplace = Number(op_->options().laplace_coefficient);
  args.mass = Number(op_->options().mass_coefficient);
  args.color = color;
  args.use_inverse = options_.solver == LocalSolver::inverse;
  args.boundary_residual = options_.residual == PatchResidual::boundary;
  args.per_column = options_.structure == ThreadStructure::per_column;
  args.patches_per_team = options_.patches_per_team;
  args.threads_per_patch = options_.threads_per_patch;
  args.inverse_diagonal = inverse_diagonal_;
  if (options_.structure == ThreadStructure::per_patch || options_.structure == ThreadStructure::per_line) {
    if (pair) return launch_vertex_patch_q1_pair(args, q1_, q1_inverse_diagonal_, color);
    return launch_vertex_patch_q1(args, q1_, q1_inverse_diagonal_);
  }
  if (options_.structure == ThreadStructure::lanes) {
    args.stage = PatchStage::fused;
    return kernels_.launch_lanes(args);
  }
  switch (options_.kernel) {
    case PatchKernel::automatic:  // resolved by the constructor
    case PatchKernel::fused:
      args.stage = PatchStage::fused;
      kernels_.launch(args);
      break;
    case PatchKernel::separate:
      args.stage = PatchStage::residual;
      kernels_.launch(args);
      args.stage = PatchStage::solve;
      kernels_.launch(args);
      break;
    case PatchKernel::global:  // the caller has computed the residual r
      args.stage = PatchStage::solve;
      kernels_.launch(args);
      break;
  }
}

template <class Number, class ExecSpace>
void VertexPatchSmoother<Number, ExecSpace>::smooth(vector_type& x, const vector_type& b, SweepOrder order) const {
  ScopedRegion region("smoother::vertex_patch");
  if (distributed_) return smooth_distributed(x, b, order);
  const int colors = n_colors(), dim = op_->layout().dim();
  const bool reverse = order == SweepOrder::reverse;
  if (options_.structure == ThreadStructure::per_line) {  // two colours a pass (patch_color)
    for (int i = 0; i < colors; i += 2)
      launch_color(x.view(), b.view(), residual_.view(), op_->layout().box(), patch_color(dim, i, reverse), {}, true);
    return;
  }
  for (int i = 0; i < colors; ++i) smooth_color(x, b, patch_color(dim, i, reverse));
}

template <class Number, class ExecSpace>
std::string VertexPatchSmoother<Number, ExecSpace>::description() const {
  std::ostringstream s;
  s << "vertex-patch " << to_string(options_.kernel) << ' ' << to_string(options_.solver) << ' '
    << to_string(options_.structure) << " patches-per-team=" << options_.patches_per_team
    << " threads-per-patch=" << options_.threads_per_patch << " residual=" << to_string(options_.residual);
  return s.str();
}

template <class Number, class ExecSpace>
global_index VertexPatchSmoother<Number, ExecSpace>::n_patches() const {
  global_index count = 1;
  const auto& cells = op_->layout().mesh().n_cells();
  for (int d = 0; d < op_->layout().dim(); ++d) count *= std::max<global_index>(cells[d] - 1, 0);
  return count;
}

template <class Number, class ExecSpace>
double VertexPatchSmoother<Number, ExecSpace>::flops_per_step() const {
  const int dim = op_->layout().dim(), k = op_->layout().degree();
  // Per patch (k = 1, q1_stencil.hpp): 27 multiply-adds per plane of 3 × 3 values, 3D 4 per
  // plane to combine them; the correction's 2.
  if (options_.structure == ThreadStructure::per_patch || options_.structure == ThreadStructure::per_line)
    return double(n_patches()) * 2 * (dim == 2 ? 27 + 2 + 2 : 3 * 27 + 12 + 2);
  const double n = 2 * k + 1, ni = 2 * k - 1;
  double residual, solve;
  if (dim == 2) {
    residual = 2 * (ni * n) * n * 2 + (ni * ni) * n * 5;  // x: two products; y: three
    solve = 4 * (ni * ni) * ni * 2;
  } else {
    residual = 2 * (ni * n * n) * n * 2 + (ni * ni * n) * n * 3 * 2 + (ni * ni * ni) * n * 5;
    solve = 6 * (ni * ni * ni) * ni * 2;
  }
  if (options_.solver == LocalSolver::inverse) solve = std::pow(dim == 2 ? ni * ni : ni * ni * ni, 2) * 2;
  return double(n_patches()) * (residual + solve);
}

#define TENSORMG_INSTANTIATE(Number, Exec) template class VertexPatchSmoother<Number, Exec>;
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
