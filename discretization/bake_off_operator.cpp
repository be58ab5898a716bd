#include "discretization/bake_off_operator.hpp"

#include <cmath>
#include <mpi.h>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/profiling.hpp"
#include "discretization/bake_off_tuning.hpp"
#include "discretization/cell_nodes.hpp"
#include "discretization/laplace_operator.hpp"  // copy_entries

namespace tensormg {

namespace {
constexpr EnumName<BakeOff> bake_off_names[] = {{BakeOff::bp1_0, "bp1.0"}, {BakeOff::bp3_5, "bp3.5"},
                                                {BakeOff::bp3_0, "bp3.0"}, {BakeOff::bp1_0, "mass"},
                                                {BakeOff::bp3_5, "bp5"},   {BakeOff::bp3_0, "bp3"}};
constexpr EnumName<BakeOffElementIo> element_io_names[] = {
    {BakeOffElementIo::automatic, "auto"}, {BakeOffElementIo::lines, "lines"}, {BakeOffElementIo::staged, "staged"}};
constexpr EnumName<BakeOffPrefetch> prefetch_names[] = {
    {BakeOffPrefetch::automatic, "auto"}, {BakeOffPrefetch::on, "on"}, {BakeOffPrefetch::off, "off"}};
constexpr EnumName<BakeOffGather> gather_names[] = {{BakeOffGather::fused, "fused"}, {BakeOffGather::separate, "separate"}};
constexpr EnumName<BakeOffGeometry> geometry_names[] = {{BakeOffGeometry::stored, "stored"},
                                                        {BakeOffGeometry::trilinear, "trilinear"}};
}  // namespace

std::string to_string(BakeOff p) { return enum_name(bake_off_names, p); }
BakeOff parse_bake_off(const std::string& text) { return parse_enum(bake_off_names, text, "bake-off operator"); }
std::string to_string(BakeOffGather g) { return enum_name(gather_names, g); }
BakeOffGather parse_bake_off_gather(const std::string& text) { return parse_enum(gather_names, text, "gather"); }
std::string to_string(BakeOffPrefetch p) { return enum_name(prefetch_names, p); }
BakeOffPrefetch parse_bake_off_prefetch(const std::string& text) { return parse_enum(prefetch_names, text, "prefetch"); }
std::string to_string(BakeOffGeometry g) { return enum_name(geometry_names, g); }
BakeOffGeometry parse_bake_off_geometry(const std::string& text) { return parse_enum(geometry_names, text, "geometry"); }
std::string to_string(BakeOffElementIo io) { return enum_name(element_io_names, io); }
BakeOffElementIo parse_bake_off_element_io(const std::string& text) {
  return parse_enum(element_io_names, text, "element I/O");
}

template <class Number, class ExecSpace>
BakeOffOperator<Number, ExecSpace>::BakeOffOperator(std::shared_ptr<const DeformedGeometry<ExecSpace>> geometry,
                                                    BakeOffOptions options)
    : geometry_(std::move(geometry)), options_(options) {
  const int k = layout().degree();
  collectively(layout().mesh().comm(), [&] {
    TENSORMG_CHECK(std::isfinite(options.lambda) && options.lambda >= 0,
                   "the mass coefficient lambda must be a finite number >= 0, given " << options.lambda);
    kernels_ = bake_off_kernels<Number, ExecSpace>(options.problem, k);
    cells_per_team_ = choose_cells_per_team<ExecSpace>(kernels_, options.cells_per_team,
                                                       to_string(options.problem) + " at Q" + std::to_string(k));
    if (options.geometry == BakeOffGeometry::trilinear) {
      // The team's vertices come on top of the buffers the table's check counted.
      const std::size_t scratch_max = Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0);
      const auto bytes = [&](int cells) {
        return kernels_.scratch_bytes(cells) + sizeof(double) * bake_off_vertex_values * std::size_t(cells);
      };
      if (options.cells_per_team == 0)
        while (cells_per_team_ > 1 && bytes(cells_per_team_) > scratch_max) --cells_per_team_;
      TENSORMG_CHECK(bytes(cells_per_team_) <= scratch_max,
                     cells_per_team_ << " cells per team need " << bytes(cells_per_team_) << " bytes of team scratch for "
                                     << to_string(options.problem) << " at Q" << k << " with the trilinear geometry; "
                                     << "this backend allows " << scratch_max << "; choose fewer cells per team");
    }
  });
  const BakeOffTuning row = bake_off_tuning(k, tuning_target<ExecSpace>());
  staged_ = options.element_io == BakeOffElementIo::automatic ? row.staged : options.element_io == BakeOffElementIo::staged;
  staged_fused_ = options.element_io == BakeOffElementIo::automatic ? row.staged_fused[int(options.problem)]
                                                                    : options.element_io == BakeOffElementIo::staged;
  // The trilinear geometry has no factors to prefetch.
  prefetch_ = options.geometry == BakeOffGeometry::stored &&
              (options.prefetch == BakeOffPrefetch::automatic ? row.prefetch[int(options.problem)]
                                                              : options.prefetch == BakeOffPrefetch::on);
  tables_ = bake_off_tables_1d(k, quadrature_of(options.problem));
  dot_ = Kokkos::View<double, typename ExecSpace::memory_space>("tensormg::bake_off::dot");
  if (options.geometry == BakeOffGeometry::trilinear)
    vertices_ = geometry_->vertices(quadrature_of(options.problem));
  else
    factors_ = geometry_->template factors<Number>(quadrature_of(options.problem), has_stiffness(options.problem));
}

template <class Number, class ExecSpace>
double BakeOffOperator<Number, ExecSpace>::geometry_bytes() const {
  return double(factors_.data.span()) * sizeof(Number) + double(vertices_.span()) * sizeof(double);
}

template <class Number, class ExecSpace>
local_index BakeOffOperator<Number, ExecSpace>::n_cells() const {
  const NodeBox& b = layout().box();
  return b.cells[0] * b.cells[1] * b.cells[2];
}

template <class Number, class ExecSpace>
typename BakeOffOperator<Number, ExecSpace>::element_vector BakeOffOperator<Number, ExecSpace>::make_element_vector(
    const std::string& name) const {
  return element_vector("tensormg::" + name, std::size_t(n_cells()) * nodes_per_cell());
}

template <class Number, class ExecSpace>
BakeOffArgs<Number, ExecSpace> BakeOffOperator<Number, ExecSpace>::arguments() const {
  BakeOffArgs<Number, ExecSpace> args;
  args.factors = factors_.data;
  args.trilinear = options_.geometry == BakeOffGeometry::trilinear;
  args.vertices = vertices_;
  args.points = tables_.points.data();
  args.weights = tables_.weights.data();
  args.interpolation = tables_.interpolation.data();
  args.collocation_derivative = tables_.collocation_derivative.data();
  args.box = layout().box();
  args.lambda = static_cast<Number>(options_.lambda);
  args.cells_per_team = cells_per_team_;
  args.staged = staged_;
  args.prefetch = prefetch_;
  args.atomic_interior = options_.atomic_interior;
  return args;
}

template <class Number, class ExecSpace>
void BakeOffOperator<Number, ExecSpace>::apply_elements(const element_vector& dst, const element_vector& src) const {
  ScopedRegion region("tensormg::operator::bake_off::apply_elements");
  const std::size_t size = std::size_t(n_cells()) * nodes_per_cell();
  TENSORMG_ASSERT(dst.extent(0) == size && src.extent(0) == size, "element vectors of the wrong size");
  (void)size;
  auto args = arguments();
  args.src = src;
  args.dst = dst;
  args.gathered = false;
  kernels_.apply(args);
}

template <class Number, class ExecSpace>
void BakeOffOperator<Number, ExecSpace>::gather(const element_vector& dst, const vector_type& src) const {
  src.update_ghosts();
  const NodeBox box = layout().box();
  const detail::CellRange cells = detail::cell_range(box, -1);
  const int n = tables_.n, k = n - 1, n3 = n * n * n;
  const auto s = src.view();
  Kokkos::parallel_for(
      "tensormg::operator::bake_off::gather", Kokkos::RangePolicy<ExecSpace>(0, std::size_t(cells.size()) * n3),
      KOKKOS_LAMBDA(const std::size_t e) {
        const local_index c = static_cast<local_index>(e / n3);
        const int node = static_cast<int>(e % n3);
        local_index cc[3];
        cells.coordinates(c, cc);
        const local_index ix = cc[0] * k + node % n, iy = cc[1] * k + (node / n) % n, iz = cc[2] * k + node / (n * n);
        dst(e) = box.on_boundary(ix, iy, iz) ? Number(0) : s(box.index(ix, iy, iz));
      });
}

template <class Number, class ExecSpace>
void BakeOffOperator<Number, ExecSpace>::scatter(vector_type& dst, const element_vector& src) const {
  dst.fill(Number(0));
  const NodeBox box = layout().box();
  const detail::CellRange cells = detail::cell_range(box, -1);
  const int n = tables_.n, k = n - 1, n3 = n * n * n;
  const auto d = dst.view();
  Kokkos::parallel_for(
      "tensormg::operator::bake_off::scatter", Kokkos::RangePolicy<ExecSpace>(0, std::size_t(cells.size()) * n3),
      KOKKOS_LAMBDA(const std::size_t e) {
        const local_index c = static_cast<local_index>(e / n3);
        const int node = static_cast<int>(e % n3);
        local_index cc[3];
        cells.coordinates(c, cc);
        const local_index ix = cc[0] * k + node % n, iy = cc[1] * k + (node / n) % n, iz = cc[2] * k + node / (n * n);
        if (!box.on_boundary(ix, iy, iz)) Kokkos::atomic_add(&d(box.index(ix, iy, iz)), src(e));
      });
  dst.compress_add();
}

template <class Number, class ExecSpace>
void BakeOffOperator<Number, ExecSpace>::vmult(vector_type& dst, const vector_type& src) const {
  ScopedRegion region("tensormg::operator::bake_off::vmult");
  if (options_.gather == BakeOffGather::separate) {
    if (e_src_.extent(0) == 0) {
      e_src_ = make_element_vector("bake_off_src");
      e_dst_ = make_element_vector("bake_off_dst");
    }
    gather(e_src_, src);
    apply_elements(e_dst_, e_src_);
    scatter(dst, e_dst_);
    copy_entries(layout().constrained_nodes(), dst, src);
  } else {
    vmult_fused(dst, src, nullptr);
  }
}

template <class Number, class ExecSpace>
void BakeOffOperator<Number, ExecSpace>::vmult_fused(vector_type& dst, const vector_type& src, double* dot) const {
  src.update_ghosts();
  dst.fill(Number(0));
  auto args = arguments();
  args.src = src.view();
  args.dst = dst.view();
  args.gathered = true;
  args.constrained = true;
  args.staged = staged_fused_;
  args.dot = dot;
  kernels_.apply(args);
  dst.compress_add();
  copy_entries(layout().constrained_nodes(), dst, src);
}

template <class Number, class ExecSpace>
double BakeOffOperator<Number, ExecSpace>::vmult_dot(vector_type& dst, const vector_type& src) const {
  ScopedRegion region("tensormg::operator::bake_off::vmult_dot");
  if (options_.gather == BakeOffGather::separate || !options_.kernel_dot) {
    vmult(dst, src);
    return double(src.dot(dst));
  }
  // The Dirichlet nodes' share first: the reduction writes (not adds to) the device sum, which
  // the kernel's teams then add to; nothing comes back to the host before the end.
  const auto nodes = layout().constrained_nodes();
  const local_index count = static_cast<local_index>(nodes.extent(0));
  const auto s = src.view();
  Kokkos::parallel_reduce(
      "tensormg::operator::bake_off::dirichlet_dot", Kokkos::RangePolicy<ExecSpace>(0, count > 0 ? count : 1),
      KOKKOS_LAMBDA(local_index i, double& sum) {
        if (i < count) {
          const double v = s(nodes(i));
          sum += v * v;
        }
      },
      dot_);
  vmult_fused(dst, src, dot_.data());
  double local = 0, global = 0;
  Kokkos::deep_copy(local, dot_);
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, layout().mesh().comm());
  return global;
}

template <class Number, class ExecSpace>
double BakeOffOperator<Number, ExecSpace>::flops_per_apply() const {
  const int k = layout().degree();
  const bool even_odd = bake_off_tuning(k, tuning_target<ExecSpace>()).even_odd[int(options_.problem)];
  return bake_off_flops_per_cell(options_.problem, k, even_odd, options_.geometry) * double(n_cells());
}

template <class Number, class ExecSpace>
double BakeOffOperator<Number, ExecSpace>::model_bytes_per_apply() const {
  const double values = bake_off_values_per_cell(options_.problem, layout().degree(), options_.geometry);
  if (options_.geometry == BakeOffGeometry::trilinear)  // the vertices' 3 values per cell are doubles
    return ((values - 3) * sizeof(Number) + 3 * sizeof(double)) * double(n_cells());
  return values * sizeof(Number) * double(n_cells());
}

template <class Number, class ExecSpace>
double BakeOffOperator<Number, ExecSpace>::scratch_bytes_per_apply() const {
  return bake_off_scratch_values_per_cell(options_.problem, layout().degree()) * sizeof(Number) * double(n_cells());
}

#define TENSORMG_INSTANTIATE(Number, Exec) template class BakeOffOperator<Number, Exec>;
TENSORMG_FOR_EACH_NUMBER_AND_SPACE(TENSORMG_INSTANTIATE)
#undef TENSORMG_INSTANTIATE

}  // namespace tensormg
