#include "discretization/low_order_operator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/enum_names.hpp"
#include "core/profiling.hpp"
#include "discretization/low_order_cell.hpp"

namespace tensormg {

namespace {
constexpr EnumName<LowOrderProblem> problem_names[] = {{LowOrderProblem::laplace, "laplace"},
                                                       {LowOrderProblem::elasticity, "elasticity"}};
constexpr EnumName<LowOrderGeometry> geometry_names[] = {{LowOrderGeometry::on_the_fly, "on-the-fly"},
                                                         {LowOrderGeometry::stored, "stored"}};
constexpr EnumName<LowOrderScatter> scatter_names[] = {{LowOrderScatter::atomic, "atomic"},
                                                       {LowOrderScatter::coloured, "coloured"},
                                                       {LowOrderScatter::block, "block"},
                                                       {LowOrderScatter::coloured, "colored"}};
constexpr EnumName<LowOrderEvaluation> evaluation_names[] = {{LowOrderEvaluation::pointwise, "pointwise"},
                                                             {LowOrderEvaluation::factorized, "factorized"},
                                                             {LowOrderEvaluation::lanes, "lanes"},
                                                             {LowOrderEvaluation::automatic, "auto"}};

using namespace low_order;

/// One cell of paper 004's Algorithm 2. Problem: components 1 (Laplace) or 3 (elasticity). Stored:
/// J⁻¹ and w det J read from `factors` instead of computed. Factorized: J and ∇_ξ u from edge
/// differences (gauss_gradients) and the result added back by its transpose, instead of sums over
/// the 8 vertices at every Gauss point. Coloured: the thread's cell is order(first + i) and the
/// additions are plain; else cell i with atomic additions. Diagonal: the operator's diagonal
/// instead of a product (src unused; always point by point).
template <class ExecSpace, int components, bool stored, bool factorized, bool coloured, bool diagonal>
struct LowOrderCellKernel : LowOrderCellData<ExecSpace> {
  using Data = LowOrderCellData<ExecSpace>;
  using Data::cells, Data::points, Data::coefficient, Data::lambda, Data::mu, Data::factors, Data::order;
  using mem = typename ExecSpace::memory_space;
  local_index first = 0;
  Kokkos::View<const double*, mem> src;
  Kokkos::View<double*, mem> dst;

  /// J⁻¹ and w det J at Gauss point q.
  KOKKOS_FORCEINLINE_FUNCTION void geometry(local_index c, int q, const double (&x)[8][3], const double (&Jg)[3][3][4],
                                            double (&K)[9], double& wdet) const {
    if (stored) {
      TENSORMG_UNROLL_ALL
      for (int e = 0; e < 9; ++e) K[e] = factors(q * 10 + e, c);
      wdet = factors(q * 10 + 9, c);
    } else if (factorized) {
      double J[3][3];
      TENSORMG_UNROLL_ALL
      for (int i = 0; i < 3; ++i)
        TENSORMG_UNROLL_ALL
        for (int d = 0; d < 3; ++d) J[i][d] = Jg[i][d][across(q, d)];
      invert_jacobian(J, K, wdet);
    } else {
      cell_geometry(x, q, K, wdet);
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(local_index i) const {
    const local_index c = coloured ? order(first + i) : i;
    local_index v[8];
    bool fixed[8];
    double out[components][8];
    evaluate(c, v, fixed, out);
    TENSORMG_UNROLL_ALL
    for (int a = 0; a < 8; ++a) {
      if (fixed[a]) continue;
      TENSORMG_UNROLL_ALL
      for (int m = 0; m < components; ++m) {
        if (coloured)
          dst(v[a] * components + m) += out[m][a];
        else
          Kokkos::atomic_add(&dst(v[a] * components + m), out[m][a]);
      }
    }
  }

  /// Cell c's product (or diagonal): its vertices v, which of them are Dirichlet vertices, and
  /// the results out[component][vertex] (zero and not to be added at the Dirichlet ones).
  KOKKOS_FORCEINLINE_FUNCTION void evaluate(local_index c, local_index (&v)[8], bool (&fixed)[8],
                                            double (&out)[components][8]) const {
    double u[components][8];
    double x[8][3];
    TENSORMG_UNROLL_ALL
    for (int a = 0; a < 8; ++a) {
      const local_index id = cells(c, a);
      fixed[a] = id < 0;
      v[a] = fixed[a] ? ~id : id;
      TENSORMG_UNROLL_ALL
      for (int m = 0; m < components; ++m) {
        u[m][a] = (diagonal || fixed[a]) ? 0.0 : src(v[a] * components + m);
        out[m][a] = 0;
      }
      if (!stored) {
        TENSORMG_UNROLL_ALL
        for (int d = 0; d < 3; ++d) x[a][d] = points(v[a], d);
      }
    }
    // Factorized: the Jacobian's and the field's ξ-derivatives at all points, 4 values each.
    double Jg[3][3][4], Ug[components][3][4], F[components][3][4];
    if (factorized && !diagonal) {
      if (!stored) {
        TENSORMG_UNROLL_ALL
        for (int d = 0; d < 3; ++d) {
          double coordinate[8];
          TENSORMG_UNROLL_ALL
          for (int a = 0; a < 8; ++a) coordinate[a] = x[a][d];
          gauss_gradients(coordinate, Jg[d]);
        }
      }
      TENSORMG_UNROLL_ALL
      for (int m = 0; m < components; ++m) {
        gauss_gradients(u[m], Ug[m]);
        TENSORMG_UNROLL_ALL
        for (int d = 0; d < 3; ++d)
          TENSORMG_UNROLL_ALL
          for (int t = 0; t < 4; ++t) F[m][d][t] = 0;
      }
    }
    const double kappa = components == 1 ? coefficient(c) : 0.0;
    const double lam = components == 3 ? lambda(c) : 0.0, shear = components == 3 ? mu(c) : 0.0;
    TENSORMG_UNROLL_ALL
    for (int q = 0; q < 8; ++q) {
      double K[9], wdet;
      geometry(c, q, x, Jg, K, wdet);
      if constexpr (diagonal) {
        // u = e_m φ_a: Laplace κ w det J |∇φ_a|², elasticity w det J (μ |∇φ_a|² + (λ + μ) (∂_m φ_a)²).
        TENSORMG_UNROLL_ALL
        for (int a = 0; a < 8; ++a) {
          double g[3], g2 = 0;
          TENSORMG_UNROLL_ALL
          for (int m = 0; m < 3; ++m) {
            g[m] = 0;
            TENSORMG_UNROLL_ALL
            for (int d = 0; d < 3; ++d) g[m] += K[d * 3 + m] * shape_gradient(a, q, d);
            g2 += g[m] * g[m];
          }
          if (components == 1) {
            out[0][a] += kappa * wdet * g2;
          } else {
            TENSORMG_UNROLL_ALL
            for (int m = 0; m < components; ++m) out[m][a] += wdet * (shear * g2 + (lam + shear) * g[m] * g[m]);
          }
        }
      } else {
        // H[m][d] = ∂u_m/∂ξ_d at q.
        double H[components][3];
        TENSORMG_UNROLL_ALL
        for (int m = 0; m < components; ++m)
          TENSORMG_UNROLL_ALL
          for (int d = 0; d < 3; ++d) {
            if (factorized) {
              H[m][d] = Ug[m][d][across(q, d)];
            } else {
              H[m][d] = 0;
              TENSORMG_UNROLL_ALL
              for (int a = 0; a < 8; ++a) H[m][d] += u[m][a] * shape_gradient(a, q, d);
            }
          }
        double T[components][3];
        point_flux<components>(H, K, wdet, kappa, lam, shear, T);
        TENSORMG_UNROLL_ALL
        for (int m = 0; m < components; ++m)
          TENSORMG_UNROLL_ALL
          for (int d = 0; d < 3; ++d) {
            if (factorized) {
              F[m][d][across(q, d)] += T[m][d];
            } else {
              TENSORMG_UNROLL_ALL
              for (int a = 0; a < 8; ++a) out[m][a] += T[m][d] * shape_gradient(a, q, d);
            }
          }
      }
    }
    if (factorized && !diagonal) {
      TENSORMG_UNROLL_ALL
      for (int m = 0; m < components; ++m) integrate_gradients(F[m], out[m]);
    }
  }
};

/// The block scatter: team b evaluates the cells of block b (a thread per cell), puts their
/// results into scratch, entry (cell in block · 8 + corner) · components + component, and after a
/// barrier sums them per distinct vertex of the block (a thread per vertex, ascending vertex
/// numbers) and adds each sum to dst atomically (a block's vertex may be another block's too).
template <class ExecSpace, int components, bool stored, bool factorized>
struct LowOrderBlockKernel {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using mem = typename ExecSpace::memory_space;
  LowOrderCellKernel<ExecSpace, components, stored, factorized, false, false> cell;
  Kokkos::View<const local_index*, mem> block_offsets, block_vertices, incidence_offsets;
  Kokkos::View<const std::uint16_t*, mem> incidence;
  local_index n_cells = 0;
  int block_cells = 1;

  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int block_cells) {
    return std::size_t(block_cells) * 8 * components * sizeof(double);
  }
  std::size_t team_shmem_size(int) const { return scratch_bytes(block_cells); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const local_index b = team.league_rank();
    const local_index first = b * local_index(block_cells);
    const int count = n_cells - first < block_cells ? int(n_cells - first) : block_cells;
    double* sums = static_cast<double*>(team.team_scratch(0).get_shmem(scratch_bytes(block_cells)));
    for (int lc = team.team_rank(); lc < count; lc += team.team_size()) {
      local_index v[8];
      bool fixed[8];
      double out[components][8];
      cell.evaluate(first + lc, v, fixed, out);
      TENSORMG_UNROLL_ALL
      for (int a = 0; a < 8; ++a)
        TENSORMG_UNROLL_ALL
        for (int m = 0; m < components; ++m) sums[(lc * 8 + a) * components + m] = out[m][a];
    }
    team.team_barrier();
    const local_index end = block_offsets(b + 1);
    for (local_index i = block_offsets(b) + team.team_rank(); i < end; i += team.team_size()) {
      double total[components] = {};
      for (local_index j = incidence_offsets(i); j < incidence_offsets(i + 1); ++j) {
        const int entry = incidence(j);
        TENSORMG_UNROLL_ALL
        for (int m = 0; m < components; ++m) total[m] += sums[entry * components + m];
      }
      const local_index vertex = block_vertices(i);
      TENSORMG_UNROLL_ALL
      for (int m = 0; m < components; ++m) Kokkos::atomic_add(&cell.dst(vertex * components + m), total[m]);
    }
  }
};

/// Stores J⁻¹ and w det J of every cell and Gauss point.
template <class ExecSpace>
struct LowOrderGeometryKernel {
  typename HexLayout<ExecSpace>::cell_view cells;
  typename HexLayout<ExecSpace>::point_view points;
  Kokkos::View<double**, Kokkos::LayoutRight, typename ExecSpace::memory_space> factors;
  KOKKOS_INLINE_FUNCTION void operator()(local_index c) const {
    double x[8][3];
    for (int a = 0; a < 8; ++a) {
      const local_index id = cells(c, a);
      const local_index v = id < 0 ? ~id : id;
      for (int d = 0; d < 3; ++d) x[a][d] = points(v, d);
    }
    for (int q = 0; q < 8; ++q) {
      double K[9], wdet;
      cell_geometry(x, q, K, wdet);
      for (int e = 0; e < 9; ++e) factors(q * 10 + e, c) = K[e];
      factors(q * 10 + 9, c) = wdet;
    }
  }
};
}  // namespace

std::string to_string(LowOrderProblem p) { return enum_name(problem_names, p); }
std::string to_string(LowOrderGeometry g) { return enum_name(geometry_names, g); }
std::string to_string(LowOrderScatter s) { return enum_name(scatter_names, s); }
LowOrderProblem parse_low_order_problem(const std::string& text, const char* what) {
  return parse_enum(problem_names, text, what);
}
LowOrderGeometry parse_low_order_geometry(const std::string& text, const char* what) {
  return parse_enum(geometry_names, text, what);
}
LowOrderScatter parse_low_order_scatter(const std::string& text, const char* what) {
  return parse_enum(scatter_names, text, what);
}
std::string to_string(LowOrderEvaluation e) { return enum_name(evaluation_names, e); }
LowOrderEvaluation parse_low_order_evaluation(const std::string& text, const char* what) {
  return parse_enum(evaluation_names, text, what);
}

LowOrderEvaluation low_order_evaluation(TuningTarget target, LowOrderScatter scatter) {
  return target == TuningTarget::host && scatter != LowOrderScatter::block ? LowOrderEvaluation::lanes
                                                                           : LowOrderEvaluation::factorized;
}

int low_order_lanes_per_cell(TuningTarget target, LowOrderProblem problem) {
  if (target == TuningTarget::host) return 1;
  return problem == LowOrderProblem::laplace ? 1 : 4;
}

void check_lanes_per_cell(int lanes, bool warps, const std::string& name) {
  TENSORMG_CHECK(lanes == 0 || lanes == 1 || lanes == 2 || lanes == 4 || lanes == 8,
                 name << " must be 1, 2, 4 or 8 (0: automatic), given " << lanes);
  TENSORMG_CHECK(lanes <= 1 || warps, name << " " << lanes
                                           << " needs a GPU backend (the threads of a cell exchange values within a "
                                              "warp); this build runs a cell's 8 points in one thread: use 1");
}

double low_order_flops_per_cell(LowOrderProblem problem, LowOrderGeometry geometry, LowOrderEvaluation evaluation) {
  // Counted as the kernel does them (an FMA is 2 flops); the shape-function gradients are
  // constants. Inverse: adjugate 9 × 3, determinant 5, reciprocal 1, scaling 9 + 1.
  const int C = n_components(problem);
  const bool factorized = evaluation == LowOrderEvaluation::factorized;
  const bool on_the_fly = geometry == LowOrderGeometry::on_the_fly;
  const double inverse = 27 + 5 + 1 + 10;
  // Per field: ∇_ξ at the 8 points (factorized: 3 directions × (4 + 10 + 10); else 8 × 3 × 8 FMA)
  // and its transpose (factorized: 3 × (12 + 12 + 8); else 8 × 3 × 8 FMA).
  // Lanes: every point does the steps (gradient 21, transpose 23 flops per point).
  TENSORMG_CHECK(evaluation != LowOrderEvaluation::automatic,
                 "the flop count needs an evaluation, not auto (LowOrderOperator::options() has the one it runs)");
  const bool lanes = evaluation == LowOrderEvaluation::lanes;
  const double gradients = lanes ? 8 * 21 : factorized ? 72 : 8 * 48;
  const double transpose = lanes ? 8 * 23 : factorized ? 96 : 8 * 48;
  const double jacobian = on_the_fly ? 3 * gradients + 8 * inverse : 0;
  // Per point: Laplace J⁻ᵀ (15), κ w det (2 + 3), J⁻¹ (15); elasticity H J⁻¹ (45), trace (3),
  // σ (9 × 4), T (45); factorized points add T into the 4-value arrays.
  const double point = problem == LowOrderProblem::laplace ? 15 + 5 + 15 : 45 + 3 + 36 + 45;
  const double accumulate = factorized ? 3 * C : 0;
  return jacobian + C * (gradients + transpose) + 8 * (point + accumulate);
}

namespace {
/// The block scatter's lists from the layout's host cells (see LowOrderOperator's members):
/// per block of block_cells consecutive cells, its (vertex, cell · 8 + corner) pairs without the
/// Dirichlet corners, sorted by vertex.
struct HostBlockLists {
  std::vector<local_index> offsets{0}, vertices, incidence_offsets{0};
  std::vector<std::uint16_t> incidence;
};
HostBlockLists build_block_lists(const std::vector<local_index>& cells, const std::vector<char>& dirichlet,
                                 local_index n_cells, int block_cells) {
  HostBlockLists h;
  std::vector<std::pair<local_index, std::uint16_t>> pairs;
  for (local_index first = 0; first < n_cells; first += block_cells) {
    const local_index count = std::min<local_index>(block_cells, n_cells - first);
    pairs.clear();
    for (local_index lc = 0; lc < count; ++lc)
      for (int a = 0; a < 8; ++a) {
        const local_index v = cells[8 * std::size_t(first + lc) + a];
        if (!dirichlet[v]) pairs.emplace_back(v, std::uint16_t(lc * 8 + a));
      }
    std::sort(pairs.begin(), pairs.end());
    for (std::size_t j = 0; j < pairs.size(); ++j) {
      if (j == 0 || pairs[j].first != pairs[j - 1].first) {
        if (j > 0) h.incidence_offsets.push_back(local_index(h.incidence.size()));
        h.vertices.push_back(pairs[j].first);
      }
      h.incidence.push_back(pairs[j].second);
    }
    if (!pairs.empty()) h.incidence_offsets.push_back(local_index(h.incidence.size()));
    h.offsets.push_back(local_index(h.vertices.size()));
  }
  return h;
}

template <class T, class Mem>
Kokkos::View<T*, Mem> to_device(const std::vector<T>& host, const std::string& name) {
  Kokkos::View<T*, Mem> view(Kokkos::view_alloc(Kokkos::WithoutInitializing, name), host.size());
  Kokkos::deep_copy(view, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()));
  return view;
}
}  // namespace

template <class ExecSpace>
LowOrderOperator<ExecSpace>::LowOrderOperator(std::shared_ptr<const HexLayout<ExecSpace>> layout,
                                              const LowOrderOptions& options)
    : layout_(std::move(layout)), options_(options) {
  const int expected = n_components(options_.problem);
  TENSORMG_CHECK(layout_->components() == expected, "the " << to_string(options_.problem) << " operator needs a layout with "
                                                           << expected << " components per vertex, not "
                                                           << layout_->components());
  TENSORMG_CHECK(options_.block_cells >= 1 && options_.block_cells <= 256,
                 "cells per block of the block scatter must be in 1..256, given " << options_.block_cells);
  if (options_.evaluation == LowOrderEvaluation::automatic)
    options_.evaluation = low_order_evaluation(tuning_target<ExecSpace>(), options_.scatter);
  const int lanes = options_.lanes_per_cell;
  check_lanes_per_cell(lanes, DeviceTraits<ExecSpace>::has_warps);
  TENSORMG_CHECK(!(options_.evaluation == LowOrderEvaluation::lanes && options_.scatter == LowOrderScatter::block),
                 "the block scatter works with the pointwise and factorized evaluations, not lanes");
  if (options_.evaluation == LowOrderEvaluation::lanes && lanes == 0)
    options_.lanes_per_cell = low_order_lanes_per_cell(tuning_target<ExecSpace>(), options_.problem);
  if (options_.scatter == LowOrderScatter::block) {
    const HostBlockLists h = build_block_lists(layout_->host_cells(), layout_->dirichlet_vertex(), layout_->n_cells(),
                                               options_.block_cells);
    blocks_.offsets = to_device<local_index, memory_space>(h.offsets, "tensormg::low_order::block_offsets");
    blocks_.vertices = to_device<local_index, memory_space>(h.vertices, "tensormg::low_order::block_vertices");
    blocks_.incidence_offsets =
        to_device<local_index, memory_space>(h.incidence_offsets, "tensormg::low_order::incidence_offsets");
    blocks_.incidence = to_device<std::uint16_t, memory_space>(h.incidence, "tensormg::low_order::incidence");
    blocks_.block_cells = options_.block_cells;
  }
  if (options_.scatter == LowOrderScatter::coloured) colouring_ = hex_cell_colouring(*layout_);
  if (options_.geometry == LowOrderGeometry::stored) {
    geometry_ = decltype(geometry_)("tensormg::low_order::geometry", 80, layout_->n_cells());
    Kokkos::parallel_for("tensormg::low_order::geometry", Kokkos::RangePolicy<ExecSpace>(0, layout_->n_cells()),
                         LowOrderGeometryKernel<ExecSpace>{layout_->cells(), layout_->points(), geometry_});
  }
}


template <class ExecSpace>
double LowOrderOperator<ExecSpace>::device_bytes() const {
  return double(geometry_.span()) * sizeof(double) + colouring_.device_bytes() +
         double(blocks_.offsets.span() + blocks_.vertices.span() + blocks_.incidence_offsets.span()) *
             sizeof(local_index) +
         double(blocks_.incidence.span()) * sizeof(std::uint16_t);
}

template <class ExecSpace>
double LowOrderOperator<ExecSpace>::flops() const {
  return layout_->n_cells() * low_order_flops_per_cell(options_.problem, options_.geometry, options_.evaluation);
}

namespace {
template <class ExecSpace, int components, bool stored, bool factorized, bool diagonal>
void run_cells(const HexLayout<ExecSpace>& layout, LowOrderScatter scatter, const LowOrderScatterBlocks<ExecSpace>& blocks,
               const HexColouring<ExecSpace>& colouring, const FactorView<ExecSpace>& factors,
               const ValueView<ExecSpace>& src, const ValueView<ExecSpace>& dst) {
  const char* name = components == 1 ? "tensormg::low_order::laplace" : "tensormg::low_order::elasticity";
  // The diagonal is set-up work: with the block scatter, by atomic additions.
  if (scatter == LowOrderScatter::atomic || (diagonal && scatter == LowOrderScatter::block)) {
    LowOrderCellKernel<ExecSpace, components, stored, factorized, false, diagonal> k{
        layout.cells(), layout.points(), layout.coefficient(), layout.lame_lambda(), layout.lame_mu(), factors,
        colouring.order, 0, src, dst};
    Kokkos::parallel_for(name, Kokkos::RangePolicy<ExecSpace>(0, layout.n_cells()), k);
    return;
  }
  if constexpr (!diagonal) {
    if (scatter == LowOrderScatter::block) {
      using Kernel = LowOrderBlockKernel<ExecSpace, components, stored, factorized>;
      Kernel k{{layout.cells(), layout.points(), layout.coefficient(), layout.lame_lambda(), layout.lame_mu(), factors,
                colouring.order, 0, src, dst},
               blocks.offsets,
               blocks.vertices,
               blocks.incidence_offsets,
               blocks.incidence,
               layout.n_cells(),
               blocks.block_cells};
      const local_index league = local_index(blocks.offsets.extent(0)) - 1;
      if (league <= 0) return;
      // A thread per cell on a GPU (256 threads of the elasticity kernel's 220 registers fit an
      // SM's register file; Kokkos refuses a team size that does not fit, it never skips the launch).
      const int team = runs_on_host<ExecSpace>() ? 1 : blocks.block_cells;
      Kokkos::parallel_for(name, typename Kernel::Policy(league, team), k);
      return;
    }
  }
  const auto& offsets = colouring.offsets;
  for (std::size_t colour = 0; colour + 1 < offsets.size(); ++colour) {
    LowOrderCellKernel<ExecSpace, components, stored, factorized, true, diagonal> k{
        layout.cells(), layout.points(), layout.coefficient(), layout.lame_lambda(), layout.lame_mu(), factors,
        colouring.order, offsets[colour], src, dst};
    Kokkos::parallel_for(name, Kokkos::RangePolicy<ExecSpace>(0, offsets[colour + 1] - offsets[colour]), k);
  }
}

template <class ExecSpace, int components, bool diagonal>
void dispatch_variant(const HexLayout<ExecSpace>& layout, const LowOrderOptions& o, const LowOrderScatterBlocks<ExecSpace>& blocks,
                      const HexColouring<ExecSpace>& colouring, const FactorView<ExecSpace>& factors, const ValueView<ExecSpace>& src,
                      const ValueView<ExecSpace>& dst) {
  const bool stored = o.geometry == LowOrderGeometry::stored;
  if constexpr (!diagonal) {
    if (o.evaluation == LowOrderEvaluation::lanes) {
      if (stored)
        apply_lanes<ExecSpace, components, true>(layout, o, colouring, factors, src, dst);
      else
        apply_lanes<ExecSpace, components, false>(layout, o, colouring, factors, src, dst);
      return;
    }
  }
  // The diagonal is always formed point by point (set-up work, no factorized variant).
  const bool factorized = !diagonal && o.evaluation == LowOrderEvaluation::factorized;
  if (stored && factorized)
    run_cells<ExecSpace, components, true, true, diagonal>(layout, o.scatter, blocks, colouring, factors, src, dst);
  else if (stored)
    run_cells<ExecSpace, components, true, false, diagonal>(layout, o.scatter, blocks, colouring, factors, src, dst);
  else if (factorized)
    run_cells<ExecSpace, components, false, true, diagonal>(layout, o.scatter, blocks, colouring, factors, src, dst);
  else
    run_cells<ExecSpace, components, false, false, diagonal>(layout, o.scatter, blocks, colouring, factors, src, dst);
}

template <class ExecSpace, bool diagonal>
void dispatch(const HexLayout<ExecSpace>& layout, const LowOrderOptions& o, const LowOrderScatterBlocks<ExecSpace>& blocks,
              const HexColouring<ExecSpace>& colouring, const FactorView<ExecSpace>& factors,
              const ValueView<ExecSpace>& src, const ValueView<ExecSpace>& dst) {
  if (o.problem == LowOrderProblem::laplace)
    dispatch_variant<ExecSpace, 1, diagonal>(layout, o, blocks, colouring, factors, src, dst);
  else
    dispatch_variant<ExecSpace, 3, diagonal>(layout, o, blocks, colouring, factors, src, dst);
}

/// dst(i) = value(i) for the constrained DoFs i (value = src for identity rows, 1 for the diagonal).
template <class ExecSpace>
void set_constrained(const Kokkos::View<local_index*, typename ExecSpace::memory_space>& constrained,
                     const Kokkos::View<double*, typename ExecSpace::memory_space>& dst,
                     const Kokkos::View<double*, typename ExecSpace::memory_space>& src, bool unit) {
  Kokkos::parallel_for(
      "tensormg::low_order::constrained", Kokkos::RangePolicy<ExecSpace>(0, constrained.extent(0)),
      KOKKOS_LAMBDA(local_index i) {
        const local_index j = constrained(i);
        dst(j) = unit ? 1.0 : src(j);
      });
}
}  // namespace

template <class ExecSpace>
void LowOrderOperator<ExecSpace>::vmult(vector_type& dst, const vector_type& src) const {
  ScopedRegion region("tensormg::low_order::vmult");
  src.update_ghosts();
  dst.fill(0.0);
  dispatch<ExecSpace, false>(*layout_, options_, blocks_, colouring_, geometry_, src.view(), dst.view());
  dst.compress_add();
  set_constrained<ExecSpace>(layout_->constrained_dofs(), dst.view(), src.view(), false);
}

template <class ExecSpace>
void LowOrderOperator<ExecSpace>::compute_diagonal(vector_type& diagonal) const {
  diagonal.fill(0.0);
  dispatch<ExecSpace, true>(*layout_, options_, blocks_, colouring_, geometry_, diagonal.view(),
                             diagonal.view());
  diagonal.compress_add();
  set_constrained<ExecSpace>(layout_->constrained_dofs(), diagonal.view(), diagonal.view(), true);
}

template class LowOrderOperator<DefaultExec>;
TENSORMG_IF_SECOND_SPACE(template class LowOrderOperator<SecondaryExec>;)

}  // namespace tensormg
