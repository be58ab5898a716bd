#include "discretization/laplace_operator.hpp"

#include <limits>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/profiling.hpp"
#include "discretization/laplace_gather.hpp"
#include "discretization/laplace_kernels.hpp"
#include "discretization/laplace_q1_gather.hpp"
#include "discretization/polynomials_1d.hpp"

namespace tensormg {

namespace {
constexpr EnumName<ScatterMode> scatter_names[] = {{ScatterMode::automatic, "auto"},
                                                   {ScatterMode::atomic, "atomic"},
                                                   {ScatterMode::store_interior, "store-interior"},
                                                   {ScatterMode::coloring, "coloring"},
                                                   {ScatterMode::gather, "gather"},
                                                   {ScatterMode::simd, "simd"}};
}  // namespace

std::string to_string(ScatterMode m) { return enum_name(scatter_names, m); }
ScatterMode parse_scatter_mode(const std::string& text) { return parse_enum(scatter_names, text, "scatter mode"); }


template <class ExecSpace>
Kokkos::View<local_index*, typename ExecSpace::memory_space> owned_boundary_nodes(const NodeBox& box) {
  const auto nodes = owned_boundary_node_list(box);
  Kokkos::View<local_index*, typename ExecSpace::memory_space> view("tensormg::operator::boundary_nodes", nodes.size());
  Kokkos::deep_copy(view, Kokkos::View<const local_index*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(nodes.data(), nodes.size()));
  return view;
}

template <class Number, class ExecSpace>
void copy_entries(const Kokkos::View<local_index*, typename ExecSpace::memory_space>& nodes,
                  DistributedVector<Number, ExecSpace>& dst, const DistributedVector<Number, ExecSpace>& src) {
  const auto d = dst.view();
  const auto s = src.view();
  Kokkos::parallel_for("tensormg::operator::dirichlet_rows", Kokkos::RangePolicy<ExecSpace>(0, nodes.extent(0)),
                       KOKKOS_LAMBDA(local_index i) { d(nodes(i)) = s(nodes(i)); });
}

template <class Number, class ExecSpace>
void set_entries(const Kokkos::View<local_index*, typename ExecSpace::memory_space>& nodes,
                 DistributedVector<Number, ExecSpace>& v, Number value) {
  const auto d = v.view();
  Kokkos::parallel_for("tensormg::operator::set_dirichlet", Kokkos::RangePolicy<ExecSpace>(0, nodes.extent(0)),
                       KOKKOS_LAMBDA(local_index i) { d(nodes(i)) = value; });
}

namespace {
/// dst_i −= src_i at the given nodes.
template <class Number, class ExecSpace>
void subtract_entries(const Kokkos::View<local_index*, typename ExecSpace::memory_space>& nodes,
                      DistributedVector<Number, ExecSpace>& dst, const DistributedVector<Number, ExecSpace>& src) {
  const auto d = dst.view();
  const auto s = src.view();
  Kokkos::parallel_for("tensormg::operator::dirichlet_rows", Kokkos::RangePolicy<ExecSpace>(0, nodes.extent(0)),
                       KOKKOS_LAMBDA(local_index i) { d(nodes(i)) -= s(nodes(i)); });
}

/// The gathering options' counts (0: automatic); a local InputError.
void check_gather_counts(const LaplaceOptions& options) {
  TENSORMG_CHECK(options.gather_z_nodes >= 0, "gather z nodes must be >= 0 (0: automatic), given " << options.gather_z_nodes);
  TENSORMG_CHECK(options.gather_tile_x >= 0 && options.gather_tile_y >= 0,
                 "gather tile segments must be >= 0 (0: automatic), given " << options.gather_tile_x << " x "
                                                                             << options.gather_tile_y);
}
}  // namespace

template <class Number, class ExecSpace>
GatherTile gather_tile_of(int dim, int k, const LaplaceOptions& options) {
  const LaplaceTuning row = laplace_tuning(dim, k, tuning_target<ExecSpace>());
  check_gather_counts(options);
  GatherTile t;
  t.x = options.gather_tile_x > 0 ? options.gather_tile_x : row.gather_tile_x;
  t.y = dim == 3 ? (options.gather_tile_y > 0 ? options.gather_tile_y : row.gather_tile_y) : 1;
  const int z_nodes = options.gather_z_nodes > 0 ? options.gather_z_nodes : row.gather_z_nodes;
  t.z_cells = z_nodes > 0 ? (z_nodes + k - 1) / k : std::numeric_limits<local_index>::max();
  const std::string what = "a gathering Q" + std::to_string(k) + " tile of " + std::to_string(t.x) + " x " +
                           std::to_string(t.y) + " segments";
  TENSORMG_CHECK(t.x >= 1 && t.y >= 1, what << " is empty");
  TENSORMG_CHECK(runs_on_host<ExecSpace>() || t.columns(dim, k) <= row.max_team_size,
                 what << " needs " << t.columns(dim, k) << " threads; at most " << row.max_team_size << " are allowed");
  const std::size_t scratch_max = Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(runs_on_host<ExecSpace>() ? 1 : 0);
  const std::size_t bytes = laplace_kernels<Number, ExecSpace>(dim, k).gather_scratch_bytes(t);
  TENSORMG_CHECK(bytes <= scratch_max,
                 what << " needs " << bytes << " bytes of team scratch; this backend allows " << scratch_max);
  return t;
}

template <class Number, class ExecSpace>
LaplaceOperator<Number, ExecSpace>::LaplaceOperator(std::shared_ptr<const ContinuousDofLayout<ExecSpace>> layout,
                                                    LaplaceOptions options)
    : layout_(std::move(layout)), options_(options) {
  const int dim = layout_->dim(), k = layout_->degree();
  kernels_ = laplace_kernels<Number, ExecSpace>(dim, k);
  const auto& table = kernels_;
  const LaplaceTuning row = laplace_tuning(dim, k, tuning_target<ExecSpace>());
  if (options_.scatter == ScatterMode::automatic)
    options_.scatter = row.simd ? ScatterMode::simd : row.gather ? ScatterMode::gather : ScatterMode::store_interior;
  // Every rank checks the same options: a refusal is collective (one message, exit code 2).
  collectively(layout_->mesh().comm(), [&] {
    check_scatter_mode<ExecSpace>(options_.scatter);
    check_gather_counts(options_);
    cells_per_team_ = choose_cells_per_team<ExecSpace>(table, options.cells_per_team,
                                                       "Q" + std::to_string(k) + " in " + std::to_string(dim) + "D");
    if (options_.scatter == ScatterMode::gather && k >= 2) gather_tile_ = gather_tile_of<Number, ExecSpace>(dim, k, options_);
  });
  if (options_.scatter == ScatterMode::gather) {
    gather_z_nodes_ = options_.gather_z_nodes > 0 ? options_.gather_z_nodes : row.gather_z_nodes;
    if (k == 1) q1::directions(layout_->mesh(), q1_);
  }
  const auto host = matrices_1d();
  matrices_ = Kokkos::View<Number*, typename ExecSpace::memory_space>("tensormg::operator::matrices_1d", host.size());
  host_matrices_.assign(host.begin(), host.end());
  Kokkos::deep_copy(matrices_, Kokkos::View<const Number*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                                   host_matrices_.data(), host_matrices_.size()));
  boundary_owned_ = layout_->constrained_nodes();
}

template <class Number, class ExecSpace>
std::vector<double> LaplaceOperator<Number, ExecSpace>::matrices_1d() const {
  const int dim = layout_->dim(), n = layout_->degree() + 1;
  std::vector<double> m(2 * dim * n * n);
  for (int d = 0; d < dim; ++d) {
    const auto cm = cell_matrices_1d(layout_->degree(), layout_->mesh().h()[d]);
    for (int e = 0; e < n * n; ++e) {
      m[(d * 2 + 0) * n * n + e] = cm.mass[e];
      m[(d * 2 + 1) * n * n + e] = cm.stiffness[e];
    }
  }
  return m;
}

template <class Number, class ExecSpace>
void LaplaceOperator<Number, ExecSpace>::apply(vector_type& dst, const vector_type& src, bool constrained,
                                               const vector_type* rhs) const {
  ScopedRegion region("tensormg::operator::laplace::vmult");
  src.update_ghosts();
  CellKernelArgs<Number, ExecSpace> args;
  args.src = src.view();
  args.dst = dst.view();
  args.matrices = matrices_;
  args.host_matrices = host_matrices_.data();
  args.box = layout_->box();
  args.laplace = static_cast<Number>(options_.laplace_coefficient);
  args.mass = static_cast<Number>(options_.mass_coefficient);
  args.zero_boundary_input = constrained;
  args.skip_boundary_output = constrained;
  args.cells_per_team = cells_per_team_;
  args.gather_tile = gather_tile_;
  // The Q1 gathering kernel forms b − A x itself (ghosts −(A x), Dirichlet rows b).
  const bool kernel_residual = rhs != nullptr && options_.scatter == ScatterMode::gather && layout_->degree() == 1;
  if (options_.scatter == ScatterMode::gather) {  // every node of the box stored, ghosts included
    if (layout_->degree() >= 2) kernels_.gather(args);
    else apply_laplace_q1_gather<Number, ExecSpace>(args.src, args.dst, args.box, q1_, args.laplace, args.mass,
                                                    constrained, gather_z_nodes_,
                                                    kernel_residual ? rhs->view() : typename vector_type::view_type());
  } else if (options_.scatter == ScatterMode::simd) {
    dst.fill(Number(0));
    kernels_.simd(args);
  } else {
    dst.fill(Number(0));
    if (options_.scatter != ScatterMode::coloring) {
      args.atomic = true;
      args.store_interior = options_.scatter == ScatterMode::store_interior;
      args.color = -1;
      kernels_.apply(args);
    } else {
      args.atomic = false;
      for (int color = 0; color < (1 << layout_->dim()); ++color) {
        args.color = color;
        kernels_.apply(args);
      }
    }
  }
  dst.compress_add();
  if (kernel_residual) {
    if (constrained) subtract_entries(boundary_owned_, dst, src);  // Dirichlet rows b − x
    return;
  }
  if (constrained) copy_entries(boundary_owned_, dst, src);
  if (rhs != nullptr) dst.axpby(Number(1), *rhs, Number(-1));
}

template <class Number, class ExecSpace>
void LaplaceOperator<Number, ExecSpace>::residual(vector_type& r, const vector_type& x, const vector_type& b) const {
  apply(r, x, true, &b);
}

template <class Number, class ExecSpace>
void LaplaceOperator<Number, ExecSpace>::vmult(vector_type& dst, const vector_type& src) const {
  apply(dst, src, true);
}

template <class Number, class ExecSpace>
void LaplaceOperator<Number, ExecSpace>::vmult_unconstrained(vector_type& dst, const vector_type& src) const {
  apply(dst, src, false);
}

template <class Number, class ExecSpace>
void LaplaceOperator<Number, ExecSpace>::compute_diagonal(vector_type& diag) const {
  diag.fill(Number(0));
  CellKernelArgs<Number, ExecSpace> args;
  args.dst = diag.view();
  args.matrices = matrices_;
  args.box = layout_->box();
  args.laplace = static_cast<Number>(options_.laplace_coefficient);
  args.mass = static_cast<Number>(options_.mass_coefficient);
  kernels_.diagonal(args);
  diag.compress_add();
  const auto d = diag.view();
  const auto nodes = boundary_owned_;
  Kokkos::parallel_for("tensormg::operator::laplace::diagonal_dirichlet", Kokkos::RangePolicy<ExecSpace>(0, nodes.extent(0)),
                       KOKKOS_LAMBDA(local_index i) { d(nodes(i)) = Number(1); });
}

template <class Number, class ExecSpace>
double LaplaceOperator<Number, ExecSpace>::flops_per_vmult() const {
  const int dim = layout_->dim(), k = layout_->degree(), n = k + 1;
  if (options_.scatter == ScatterMode::gather && k >= 2) return gather_flops(dim, k, layout_->box(), gather_tile_);
  if (options_.scatter == ScatterMode::gather) {
    // Per node of the box (laplace_q1_gather.hpp): one plane's two sums, 27 multiply-adds, and
    // in 3D the combination of three planes, 6 flops each; 2D the plane's 3.
    const NodeBox& box = layout_->box();
    const double nodes = double(box.n[0]) * box.n[1] * (dim == 3 ? box.n[2] : 1);
    return nodes * (2 * 27 + (dim == 3 ? 3 * 6 : 3));
  }
  const double cell = dim == 2 ? double(n) * n : double(n) * n * n, lines = cell / n;
  // Per line: 1D products (a matrix on a column of n values; 2D: x 2, y 2; 3D: x 2, y 3, z 2),
  // each 2 flops per multiply-add; in even-odd form (the tuning row's) a product takes
  // (n/2)·n + (odd n: (n+1)/2) multiply-adds, and splitting a column into its even and odd parts
  // or combining a pair of outputs 2·(n/2) additions (2D: 3 splits, 3 combinations; 3D: 5, 5).
  // Plus 3 flops per cell entry for the coefficient combination a t1 + b t0.
  const double products = dim == 2 ? 4 : 7;
  const bool even_odd = laplace_tuning(dim, k, tuning_target<ExecSpace>()).even_odd;
  double per_line = 0;
  if (even_odd) {
    const double fmas = contraction::even_odd_multiply_adds(n, n), pair_adds = 2 * (n / 2);
    per_line = products * 2 * fmas + (dim == 2 ? 6 : 10) * pair_adds;
  } else {
    per_line = products * 2 * double(n) * n;
  }
  return (per_line * lines + 3 * cell) * double(layout_->mesh().n_local_cells());
}

#define TENSORMG_INSTANTIATE(Number, Exec)                                                                 \
  template class LaplaceOperator<Number, Exec>;                                                            \
  template GatherTile gather_tile_of<Number, Exec>(int, int, const LaplaceOptions&);                       \
  template void copy_entries<Number, Exec>(const Kokkos::View<local_index*, typename Exec::memory_space>&, \
                                           DistributedVector<Number, Exec>&, const DistributedVector<Number, Exec>&); \
  template void set_entries<Number, Exec>(const Kokkos::View<local_index*, typename Exec::memory_space>&,  \
                                          DistributedVector<Number, Exec>&, Number);
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE
template Kokkos::View<local_index*, DefaultExec::memory_space> owned_boundary_nodes<DefaultExec>(const NodeBox&);
TENSORMG_IF_SECOND_SPACE(template Kokkos::View<local_index*, SecondaryExec::memory_space>
                             owned_boundary_nodes<SecondaryExec>(const NodeBox&);)

}  // namespace tensormg
