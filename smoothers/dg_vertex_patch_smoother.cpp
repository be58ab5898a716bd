#include "smoothers/dg_vertex_patch_smoother.hpp"

#include <algorithm>
#include <cmath>

#include "core/device_traits.hpp"
#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/profiling.hpp"
#include "backends/block_contraction.hpp"
#include "smoothers/dg_vertex_patch_tuning.hpp"

namespace tensormg {

namespace {
constexpr EnumName<DgPatchLayout> dg_patch_layout_names[] = {{DgPatchLayout::padded, "padded"},
                                                             {DgPatchLayout::plain, "plain"}};
constexpr EnumName<DgPatchInversion> dg_patch_inversion_names[] = {
    {DgPatchInversion::automatic, "auto"},
    {DgPatchInversion::fast_diagonalization, "fast-diagonalization"},
    {DgPatchInversion::inverse, "inverse"}};
}  // namespace

constexpr EnumName<DgPatchContraction> dg_patch_contraction_names[] = {{DgPatchContraction::automatic, "auto"},
                                                                      {DgPatchContraction::lines, "lines"},
                                                                      {DgPatchContraction::blocks, "blocks"},
                                                                      {DgPatchContraction::f16, "f16"},
                                                                      {DgPatchContraction::f16ec, "f16ec"}};

std::string to_string(DgPatchContraction c) { return enum_name(dg_patch_contraction_names, c); }
DgPatchContraction parse_dg_patch_contraction(const std::string& text) {
  return parse_enum(dg_patch_contraction_names, text, "DG patch contraction");
}

constexpr EnumName<DgPatchSharedMemory> dg_patch_shared_memory_names[] = {
    {DgPatchSharedMemory::automatic, "auto"}, {DgPatchSharedMemory::block, "block"}, {DgPatchSharedMemory::opt_in, "opt-in"}};

std::string to_string(DgPatchSharedMemory m) { return enum_name(dg_patch_shared_memory_names, m); }
DgPatchSharedMemory parse_dg_patch_shared_memory(const std::string& text) {
  return parse_enum(dg_patch_shared_memory_names, text, "DG patch shared memory");
}

constexpr EnumName<DgPatchScratchPointer> dg_patch_scratch_pointer_names[] = {
    {DgPatchScratchPointer::automatic, "auto"}, {DgPatchScratchPointer::fast, "fast"}, {DgPatchScratchPointer::generic, "generic"}};

std::string to_string(DgPatchScratchPointer p) { return enum_name(dg_patch_scratch_pointer_names, p); }
DgPatchScratchPointer parse_dg_patch_scratch_pointer(const std::string& text) {
  return parse_enum(dg_patch_scratch_pointer_names, text, "DG patch scratch pointer");
}

std::string to_string(DgPatchInversion i) { return enum_name(dg_patch_inversion_names, i); }
DgPatchInversion parse_dg_patch_inversion(const std::string& text) {
  return parse_enum(dg_patch_inversion_names, text, "DG patch inversion");
}

std::string to_string(DgPatchLayout l) { return enum_name(dg_patch_layout_names, l); }
DgPatchLayout parse_dg_patch_layout(const std::string& text) {
  return parse_enum(dg_patch_layout_names, text, "DG patch layout");
}

void check_dg_patch_contraction(DgPatchContraction contraction, int dim, int k, bool float_numbers,
                                bool dense_inverse) {
  if (contraction != DgPatchContraction::f16 && contraction != DgPatchContraction::f16ec) return;
  const std::string name = to_string(contraction);
  TENSORMG_CHECK(float_numbers, "DG patch contraction " << name
                                                          << " rounds float operands to FP16: it needs a float smoother "
                                                             "(--precision float or mixed)");
  TENSORMG_CHECK(dg_patch_has_f16(k) && (dim == 2 || dim == 3),
                 "DG patch contraction " << name << " has kernels for 2(k + 1) = 8..16 only (degrees 3..7); " << dim
                                         << "D degree " << k << " has " << 2 * (k + 1));
  TENSORMG_CHECK(!dense_inverse, "DG patch contraction " << name
                                                         << " runs the fast-diagonalization solve; the dense-inverse "
                                                            "solve keeps the line kernel (use --patch-inversion "
                                                            "fast-diagonalization)");
}

void check_dg_patches_per_team(int dim, int k, int patches_per_team) {
  // Several patches per team only where the tuning row puts several (the other kernels are built
  // for one), up to 128 threads per team (the launch bounds' block size).
  TENSORMG_CHECK((dim == 2 || dim == 3) && k >= 1, "DG patches per team: no DG patch kernel for " << dim << "D degree " << k);
  const int N = 2 * (k + 1), patch_threads = std::min(dim == 2 ? N : N * N, 128);
  const int most = dg_patch_tuning(dim, k).patches_per_team > 1 ? std::min(32, 128 / patch_threads) : 1;
  TENSORMG_CHECK(patches_per_team >= 0 && patches_per_team <= most,
                 "DG patches per team " << patches_per_team << ": use 0 (tuned) or "
                                        << (most == 1 ? std::string("1") : "1.." + std::to_string(most)) << " for "
                                        << dim << "D degree " << k);
}

bool uses_dg_dense_inverse(DgPatchInversion inversion, int dim, int k, bool on_device) {
  if (inversion != DgPatchInversion::automatic) return inversion == DgPatchInversion::inverse;
  return on_device && (dim == 2 || dim == 3) && k >= 1 && dg_patch_tuning(dim, k).dense_inverse_on_device;
}

void check_dg_dense_inverse(int dim, int k) {
  TENSORMG_CHECK((dim == 2 || dim == 3) && k >= 1, "DG dense inverse: no DG patch kernel for " << dim << "D degree " << k);
  const double values = std::pow(2.0 * (k + 1), dim);
  TENSORMG_CHECK(values <= dg_dense_inverse_max_values,
                 "the dense-inverse DG local solve stores (2(k+1))^d squared values per patch type; "
                     << dim << "D degree " << k << " has " << values << " values per patch (at most "
                     << dg_dense_inverse_max_values << ": 3D k <= 4, 2D any degree); use fast-diagonalization");
}

/// Whether DgPatchContraction::automatic takes error-corrected FP16 blocks: the float kernel, fast
/// diagonalization, a row with f16ec_fp32 (3D, blocks of 16: the test of the rows checks it) and
/// a backend whose blocks of 16 have FP16 tensor cores (never the portable emulation).
template <class Number, class ExecSpace>
bool dg_patch_auto_f16ec(int dim, int k, bool dense_inverse) {
  if constexpr (!std::is_same_v<Number, float>) {
    return false;
  } else {
    constexpr bool tensor_cores =
        block::BlockContraction<ExecSpace, float, 3, 16, block::Products::f16_corrected>::tensor_cores;
    return tensor_cores && !dense_inverse && (dim == 2 || dim == 3) && dg_patch_tuning(dim, k).f16ec_fp32;
  }
}

template <class Number, class ExecSpace>
DgVertexPatchSmoother<Number, ExecSpace>::DgVertexPatchSmoother(
    std::shared_ptr<const DgLaplaceOperator<Number, ExecSpace>> op, DgLocalSolver solver, DgPatchKernelOptions kernel)
    : op_(std::move(op)), solver_(solver), kernel_(kernel) {
  const auto& layout = op_->layout();
  int ranks = 1;
  MPI_Comm_size(layout.mesh().comm(), &ranks);
  distributed_ = ranks > 1;
  const int dim = layout.dim(), k = layout.degree(), n = k + 1, N = 2 * n;
  check_dg_patches_per_team(dim, k, kernel_.patches_per_team);
  kernel_.inversion = uses_dg_dense_inverse(kernel_.inversion, dim, k, !runs_on_host<ExecSpace>())
                          ? DgPatchInversion::inverse
                          : DgPatchInversion::fast_diagonalization;
  const bool inverse = kernel_.inversion == DgPatchInversion::inverse;
  if (inverse) check_dg_dense_inverse(dim, k);
  if (kernel_.contraction == DgPatchContraction::automatic && dg_patch_auto_f16ec<Number, ExecSpace>(dim, k, inverse))
    kernel_.contraction = DgPatchContraction::f16ec;
  check_dg_patch_contraction(kernel_.contraction, dim, k, sizeof(Number) == 4, inverse);
  if (kernel_.shared_memory == DgPatchSharedMemory::automatic)
    kernel_.shared_memory = (dim == 2 || dim == 3) && dg_patch_tuning(dim, k).opt_in_shared ? DgPatchSharedMemory::opt_in
                                                                                            : DgPatchSharedMemory::block;
  kernels_ = dg_patch_kernels<Number, ExecSpace>(dim, k);
  // [direction][position]: L of the local residual and M of the patch, S (in the patch's values)
  // and λ of the local solver padded to 2n (zero columns, λ = 1, beyond the local space).
  const int block = 3 * N * N + N;
  std::vector<Number> host(std::size_t(dim) * 4 * block, Number(0));
  const double gamma = op_->options().penalty_factor;
  std::array<std::array<DgPatchMatrices1D, 4>, 3> locals;
  for (int d = 0; d < dim; ++d)
    for (int position = 0; position < 4; ++position) {
      const double h = layout.mesh().h()[d];
      const bool lower = position & 1, upper = position & 2;
      const auto full = dg_patch_matrices_1d(k, h, gamma, lower, upper, DgLocalSolver::full);
      const auto& local = locals[d][position] =
          solver == DgLocalSolver::full ? full : dg_patch_matrices_1d(k, h, gamma, lower, upper, solver);
      Number* b = host.data() + (std::size_t(d) * 4 + position) * block;
      for (int i = 0; i < N * N; ++i) {
        b[i] = static_cast<Number>(local.residual_laplace[i]);  // the local residual's (dirichlet only)
        b[N * N + i] = static_cast<Number>(full.mass[i]);
      }
      local_size_[d][position] = local.size;
      const auto S = local.padded_patch_eigenvectors();
      const auto lambda = local.padded_eigenvalues();
      for (int i = 0; i < N * N; ++i) b[2 * N * N + i] = static_cast<Number>(S[i]);
      for (int i = 0; i < N; ++i) b[3 * N * N + i] = static_cast<Number>(lambda[i]);
    }
  data_ = Kokkos::View<Number*, typename ExecSpace::memory_space>("tensormg::smoother::dg_patch_data", host.size());
  Kokkos::deep_copy(data_, Kokkos::View<const Number*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()));
  host_data_ = std::move(host);
  if (inverse) build_dense_inverse(locals);
  if (solver_ == DgLocalSolver::full) residual_ = op_->make_vector("dg_patch_residual");
  if (!distributed_) return;
  // Cells: a rank owns its box; its halo box grows it by one cell per side.
  const auto& mesh = layout.mesh();
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
      empty = empty || r[1] == r[0];
      owned.lo[d] = r[0];
      owned.hi[d] = r[1];
      box.lo[d] = std::max<global_index>(r[0] - 1, 0);
      box.hi[d] = std::min<global_index>(r[1] + 1, mesh.n_cells()[d]);
    }
    if (empty)
      for (int d = 0; d < dim; ++d) owned.hi[d] = owned.lo[d], box.hi[d] = box.lo[d];
  };
  halo_ = HaloBox<ExecSpace>(mesh.comm(), dim, layout.box().cell_dofs, ranges, 31, kernel_.transport);
  CellBox& hb = halo_box_;
  hb = layout.box();
  hb.n_owned_cells = 1;
  for (int d = 0; d < 3; ++d) {
    hb.cells[d] = halo_.extent(d);
    hb.offset[d] = halo_.lower(d);
    hb.n_owned_cells *= hb.cells[d];
    hb.boundary[d][0] = d < dim && hb.offset[d] == 0;
    hb.boundary[d][1] = d < dim && hb.offset[d] + hb.cells[d] == hb.global_cells[d];
    hb.slab_offset[d][0] = hb.slab_offset[d][1] = 0;  // no ghost cells: the halo box holds them all
  }
  split_ = halo_.overlap_split(hb.cells, kernel_.overlap, layout.degree(), mesh.comm());
  x_box_ = view_type("tensormg::smoother::dg_halo_box::x", halo_.size());
  b_box_ = view_type("tensormg::smoother::dg_halo_box::b", halo_.size());
}

template <class Number, class ExecSpace>
void DgVertexPatchSmoother<Number, ExecSpace>::build_dense_inverse(
    const std::array<std::array<DgPatchMatrices1D, 4>, 3>& locals) {
  const auto& layout = op_->layout();
  const int dim = layout.dim(), n = layout.degree() + 1, N = 2 * n;
  const int P = dim == 2 ? N * N : N * N * N, cell_values = dim == 2 ? n * n : n * n * n;
  // The combinations of boundary positions that occur (DgPatchArgs::inverse_slot).
  std::array<std::vector<int>, 3> positions;
  int combos = 1;
  for (int d = 0; d < 3; ++d) {
    positions[d] = d < dim ? dg_patch_positions(layout.mesh().n_cells()[d]) : std::vector<int>{0};
    for (std::size_t i = 0; i < positions[d].size(); ++i) inverse_slot_[d][positions[d][i]] = int(i) * combos;
    combos *= int(positions[d].size());
  }
  // Memory order e of the kernel's patch values → lexicographic patch value (dg_vertex_patch_kernels.hpp).
  std::vector<int> lex(P);
  for (int e = 0; e < P; ++e) {
    const int cell = e / cell_values, i = e % cell_values;
    const int cx = cell & 1, cy = (cell >> 1) & 1, cz = cell >> 2;
    lex[e] = (cx * n + i % n) + N * (cy * n + (i / n) % n) + N * N * (cz * n + (dim == 3 ? i / (n * n) : 0));
  }
  const auto& o = op_->options();
  std::vector<Number> host(std::size_t(combos) * P * P);
  for (int c = 0; c < combos; ++c) {
    std::array<const DgPatchMatrices1D*, 3> m{};
    for (int d = 0, stride = 1; d < dim; stride *= int(positions[d].size()), ++d)  // direction d's position in c
      m[d] = &locals[d][positions[d][(c / stride) % int(positions[d].size())]];
    const auto D = dg_patch_dense_inverse(dim, m, o.laplace_coefficient, o.mass_coefficient);
    Number* const block = host.data() + std::size_t(c) * P * P;
    for (int j = 0; j < P; ++j)
      for (int e = 0; e < P; ++e) block[std::size_t(j) * P + e] = static_cast<Number>(D[std::size_t(lex[e]) * P + j]);
  }
  inverse_ = view_type("tensormg::smoother::dg_patch_inverse", host.size());
  Kokkos::deep_copy(inverse_, Kokkos::View<const Number*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()));
}

template <class Number, class ExecSpace>
void DgVertexPatchSmoother<Number, ExecSpace>::launch_color(const view_type& x, const view_type& b, const CellBox& box,
                                                            int color, const PatchWindow& window) const {
  DgPatchArgs<Number, ExecSpace> args;
  args.x = x;
  args.data = data_;
  args.host_data = host_data_.data();
  args.box = box;
  args.color = color;
  args.laplace = static_cast<Number>(op_->options().laplace_coefficient);
  args.mass = static_cast<Number>(op_->options().mass_coefficient);
  args.layout = kernel_.layout;
  args.patches_per_team = kernel_.patches_per_team;
  args.use_inverse = kernel_.inversion == DgPatchInversion::inverse;
  args.contraction = kernel_.contraction;
  args.opt_in_shared = kernel_.shared_memory == DgPatchSharedMemory::opt_in;
  args.scratch_pointer = kernel_.scratch_pointer;
  args.inverse = inverse_;
  for (int d = 0; d < 3; ++d)
    for (int position = 0; position < 4; ++position) args.inverse_slot[d][position] = inverse_slot_[d][position];
  for (int d = 0; d < 3; ++d)
    for (int position = 0; position < 4; ++position) args.local_size[d][position] = local_size_[d][position];
  for (int d = 0; d < 3; ++d) {
    // Colours by the parity of global vertices (dg_vertex_patch_kernels.hpp).
    const int parity = int(((color >> d) + box.offset[d]) & 1);
    if (d < box.dim) window_patches(window, d, parity, std::max<local_index>(0, (box.cells[d] - parity) / 2), args.first[d], args.patches[d]);
  }
  args.b = b;
  args.local_residual = solver_ != DgLocalSolver::full;
  kernels_.launch(args);
}

template <class Number, class ExecSpace>
void DgVertexPatchSmoother<Number, ExecSpace>::smooth_color(vector_type& x, const vector_type& b, int color) const {
  if (solver_ == DgLocalSolver::full) {
    op_->vmult(residual_, x);
    residual_.axpby(Number(1), b, Number(-1));  // r = b − A x
    launch_color(x.view(), residual_.view(), op_->layout().box(), color);
  } else {
    launch_color(x.view(), b.view(), op_->layout().box(), color);
  }
}

template <class Number, class ExecSpace>
void DgVertexPatchSmoother<Number, ExecSpace>::smooth(vector_type& x, const vector_type& b, SweepOrder order) const {
  ScopedRegion region("tensormg::smoother::dg_vertex_patch");
  const int colors = 1 << op_->layout().dim();
  if (!distributed_) {
    for (int c = 0; c < colors; ++c) smooth_color(x, b, order == SweepOrder::forward ? c : colors - 1 - c);
    return;
  }
  const bool full = solver_ == DgLocalSolver::full;
  exchange_([&] {
    halo_.copy_in(x.view(), x_box_);
    halo_.refresh(x_box_);
    if (!full) {
      halo_.copy_in(b.view(), b_box_);
      halo_.refresh(b_box_);
    }
  });
  for (int i = 0; i < colors; ++i) {
    const int color = order == SweepOrder::forward ? i : colors - 1 - i;
    if (full) {  // the global residual into the halo box (b_box_ holds it)
      halo_.copy_out(x.view(), x_box_);
      op_->vmult(residual_, x);
      residual_.axpby(Number(1), b, Number(-1));
      exchange_([&] {
        halo_.copy_in(residual_.view(), b_box_);
        halo_.refresh(b_box_);
      });
    }
    if (i + 1 == colors) {  // the last colour's halo values are not needed
      if (halo_.size() > 0) launch_color(x_box_, b_box_, halo_box_, color);
    } else if (split_.overlap) {
      for (const auto& w : split_.boundary) launch_color(x_box_, b_box_, halo_box_, color, w);
      exchange_([&] { halo_.start_refresh(x_box_); });
      launch_color(x_box_, b_box_, halo_box_, color, split_.interior);
      exchange_([&] { halo_.finish_refresh(x_box_); });
    } else {
      if (halo_.size() > 0) launch_color(x_box_, b_box_, halo_box_, color);
      exchange_([&] { halo_.refresh(x_box_); });
    }
  }
  exchange_([&] { halo_.copy_out(x.view(), x_box_); });
}

template <class Number, class ExecSpace>
std::string DgVertexPatchSmoother<Number, ExecSpace>::description() const {
  return "dg-vertex-patch " + to_string(solver_) + " " + to_string(kernel_.inversion) +
         (kernel_.contraction != DgPatchContraction::automatic ? " " + to_string(kernel_.contraction) + "-contraction" : "") +
         (kernel_.layout == DgPatchLayout::plain ? " plain-layout" : "") +
         (kernel_.shared_memory == DgPatchSharedMemory::opt_in ? " opt-in-shared" : "") +
         (kernel_.scratch_pointer != DgPatchScratchPointer::automatic ? " " + to_string(kernel_.scratch_pointer) + "-scratch" : "") +
         (kernel_.patches_per_team > 0 ? " " + std::to_string(kernel_.patches_per_team) + "-patches-per-team" : "");
}

#define TENSORMG_INSTANTIATE(Number, Exec) template class DgVertexPatchSmoother<Number, Exec>;
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
