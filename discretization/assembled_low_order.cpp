#include "discretization/assembled_low_order.hpp"

#include <KokkosSparse_spmv.hpp>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/host_vector_arrays.hpp"
#include "core/profiling.hpp"

namespace tensormg {

namespace {
/// The textbook element matrix on the reference cube [−1, 1]³: N_a = (1 ± ξ)(1 ± η)(1 ± ζ)/8,
/// Gauss points ±1/√3 of weight 1, J = Σ_a x_a ⊗ ∇_ξ N_a, ∇N_a = J⁻ᵀ ∇_ξ N_a; Laplace
/// K_ab = Σ κ ∇N_a·∇N_b det J, elasticity K = Σ Bᵀ D B det J with the 6 × 24 Voigt strain matrix B
/// (ε_xx, ε_yy, ε_zz, γ_xy, γ_yz, γ_xz) and D the isotropic stiffness. K: (8C)² entries, row-major.
template <int C>
KOKKOS_INLINE_FUNCTION void element_matrix(const double (&x)[8][3], double kappa, double lambda, double mu, double* K) {
  constexpr int n = 8 * C;
  for (int i = 0; i < n * n; ++i) K[i] = 0;
  const double g = 0.57735026918962576451;  // 1/√3
  for (int q = 0; q < 8; ++q) {
    const double xi[3] = {(q & 1) ? g : -g, (q & 2) ? g : -g, (q & 4) ? g : -g};
    double dN[8][3];
    for (int a = 0; a < 8; ++a) {
      const double s[3] = {(a & 1) ? 1.0 : -1.0, (a & 2) ? 1.0 : -1.0, (a & 4) ? 1.0 : -1.0};
      const double f[3] = {1 + s[0] * xi[0], 1 + s[1] * xi[1], 1 + s[2] * xi[2]};
      dN[a][0] = s[0] * f[1] * f[2] / 8;
      dN[a][1] = f[0] * s[1] * f[2] / 8;
      dN[a][2] = f[0] * f[1] * s[2] / 8;
    }
    double J[3][3] = {};
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i)
        for (int d = 0; d < 3; ++d) J[i][d] += x[a][i] * dN[a][d];
    const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                       J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                       J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
    // Solve Jᵀ ∇N_a = ∇_ξ N_a by Cramer's rule, column by column of Jᵀ.
    double grad[8][3];
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i) {
        double M[3][3];
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) M[r][c] = c == i ? dN[a][r] : J[c][r];
        grad[a][i] = (M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                      M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0])) /
                     det;
      }
    if (C == 1) {
      for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 8; ++b)
          K[a * n + b] += kappa * det * (grad[a][0] * grad[b][0] + grad[a][1] * grad[b][1] + grad[a][2] * grad[b][2]);
    } else {
      double D[6][6] = {};
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) D[r][c] = lambda;
        D[r][r] = lambda + 2 * mu;
        D[3 + r][3 + r] = mu;
      }
      double B[6][24] = {};
      for (int a = 0; a < 8; ++a) {
        const double* dn = grad[a];
        B[0][3 * a] = dn[0];
        B[1][3 * a + 1] = dn[1];
        B[2][3 * a + 2] = dn[2];
        B[3][3 * a] = dn[1], B[3][3 * a + 1] = dn[0];
        B[4][3 * a + 1] = dn[2], B[4][3 * a + 2] = dn[1];
        B[5][3 * a] = dn[2], B[5][3 * a + 2] = dn[0];
      }
      double DB[6][24];
      for (int r = 0; r < 6; ++r)
        for (int j = 0; j < 24; ++j) {
          double s = 0;
          for (int k = 0; k < 6; ++k) s += D[r][k] * B[k][j];
          DB[r][j] = s;
        }
      for (int i = 0; i < 24; ++i)
        for (int j = 0; j < 24; ++j) {
          double s = 0;
          for (int k = 0; k < 6; ++k) s += B[k][i] * DB[k][j];
          K[i * n + j] += det * s;
        }
    }
  }
}

/// Layout cell c's vertices v (Dirichlet ones flagged in `fixed`, from the ~index encoding) and
/// element matrix K: what both assembly kernels start from.
template <int C, class Cells, class Points, class Values>
KOKKOS_INLINE_FUNCTION void cell_matrix(const Cells& cells, const Points& points, const Values& kappa,
                                        const Values& lambda, const Values& mu, local_index c, local_index (&v)[8],
                                        bool (&fixed)[8], double* K) {
  double x[8][3];
  for (int a = 0; a < 8; ++a) {
    const local_index id = cells(c, a);
    fixed[a] = id < 0;
    v[a] = fixed[a] ? ~id : id;
    for (int d = 0; d < 3; ++d) x[a][d] = points(v[a], d);
  }
  element_matrix<C>(x, kappa(c), lambda(c), mu(c), K);
}

/// Adds every cell's element matrix into the CRS values: position of column vertex b in row
/// vertex a's sorted neighbour list by binary search; Dirichlet rows and columns left out.
template <class ExecSpace, int C>
struct AssembleKernel {
  using mem = typename ExecSpace::memory_space;
  typename HexLayout<ExecSpace>::cell_view cells;
  typename HexLayout<ExecSpace>::point_view points;
  Kokkos::View<const double*, mem> kappa, lambda, mu;
  Kokkos::View<const std::int64_t*, mem> vertex_start, row_map;
  Kokkos::View<const local_index*, mem> neighbours;
  Kokkos::View<double*, mem> values;
  KOKKOS_INLINE_FUNCTION void operator()(local_index c) const {
    local_index v[8];
    bool fixed[8];
    double K[64 * C * C];
    cell_matrix<C>(cells, points, kappa, lambda, mu, c, v, fixed, K);
    for (int a = 0; a < 8; ++a) {
      if (fixed[a]) continue;
      const std::int64_t begin = vertex_start(v[a]), end = vertex_start(v[a] + 1);
      for (int b = 0; b < 8; ++b) {
        if (fixed[b]) continue;
        std::int64_t lo = begin, hi = end;
        while (lo < hi) {
          const std::int64_t mid = (lo + hi) / 2;
          if (neighbours(mid) < v[b]) lo = mid + 1;
          else hi = mid;
        }
        const std::int64_t p = lo - begin;
        for (int m = 0; m < C; ++m)
          for (int mm = 0; mm < C; ++mm)
            Kokkos::atomic_add(&values(row_map(v[a] * C + m) + p * C + mm), K[(a * C + m) * 8 * C + b * C + mm]);
      }
    }
  }
};

/// Adds every cell's element matrix into the dense matrix a of the global DoFs (vertex
/// global(v) · C + component; rows of ghost vertices too, as partial sums), Dirichlet rows and
/// columns left out.
template <class ExecSpace, int C>
struct DenseAssembleKernel {
  using mem = typename ExecSpace::memory_space;
  typename HexLayout<ExecSpace>::cell_view cells;
  typename HexLayout<ExecSpace>::point_view points;
  Kokkos::View<const double*, mem> kappa, lambda, mu;
  Kokkos::View<const global_index*, mem> global;
  Kokkos::View<double**, Kokkos::LayoutRight, mem> a;
  KOKKOS_INLINE_FUNCTION void operator()(local_index c) const {
    local_index v[8];
    bool fixed[8];
    double K[64 * C * C];
    cell_matrix<C>(cells, points, kappa, lambda, mu, c, v, fixed, K);
    for (int i = 0; i < 8; ++i) {
      if (fixed[i]) continue;
      const global_index row = global(v[i]) * C;
      for (int j = 0; j < 8; ++j) {
        if (fixed[j]) continue;
        const global_index column = global(v[j]) * C;
        for (int m = 0; m < C; ++m)
          for (int mm = 0; mm < C; ++mm)
            Kokkos::atomic_add(&a(row + m, column + mm), K[(i * C + m) * 8 * C + j * C + mm]);
      }
    }
  }
};
}  // namespace

std::vector<double> low_order_element_matrix(LowOrderProblem problem, const double (&x)[8][3], double kappa,
                                             double lambda, double mu) {
  if (problem == LowOrderProblem::laplace) {
    std::vector<double> K(64);
    element_matrix<1>(x, kappa, lambda, mu, K.data());
    return K;
  }
  std::vector<double> K(576);
  element_matrix<3>(x, kappa, lambda, mu, K.data());
  return K;
}

template <class ExecSpace>
AssembledLowOrder<ExecSpace>::AssembledLowOrder(std::shared_ptr<const HexLayout<ExecSpace>> layout,
                                                LowOrderProblem problem)
    : layout_(std::move(layout)) {
  const int C = n_components(problem);
  TENSORMG_CHECK(layout_->components() == C, "the assembled " << to_string(problem) << " operator needs a layout with "
                                                              << C << " components per vertex");
  const local_index n_vertices = layout_->n_local_vertices(), n_cells = layout_->n_cells();
  const auto& cells = layout_->host_cells();
  const auto& fixed = layout_->dirichlet_vertex();
  // Vertex → cells, then each free vertex's sorted free neighbour vertices.
  std::vector<std::int64_t> cell_start(n_vertices + 1, 0);
  for (const local_index v : cells) ++cell_start[v + 1];
  for (local_index v = 0; v < n_vertices; ++v) cell_start[v + 1] += cell_start[v];
  std::vector<local_index> vertex_cells(cells.size());
  {
    std::vector<std::int64_t> fill(cell_start.begin(), cell_start.end() - 1);
    for (local_index c = 0; c < n_cells; ++c)
      for (int a = 0; a < 8; ++a) vertex_cells[fill[cells[8 * c + a]]++] = c;
  }
  std::vector<std::int64_t> vertex_start(n_vertices + 1, 0);
  std::vector<local_index> neighbours, scratch;
  for (local_index v = 0; v < n_vertices; ++v) {
    if (!fixed[v]) {
      scratch.clear();
      for (std::int64_t e = cell_start[v]; e < cell_start[v + 1]; ++e)
        for (int a = 0; a < 8; ++a) {
          const local_index w = cells[8 * vertex_cells[e] + a];
          if (!fixed[w]) scratch.push_back(w);
        }
      std::sort(scratch.begin(), scratch.end());
      scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
      neighbours.insert(neighbours.end(), scratch.begin(), scratch.end());
    }
    vertex_start[v + 1] = std::int64_t(neighbours.size());
  }
  const local_index rows = n_vertices * C;
  std::vector<std::int64_t> row_map(rows + 1, 0);
  for (local_index v = 0; v < n_vertices; ++v) {
    const std::int64_t degree = vertex_start[v + 1] - vertex_start[v];
    for (int m = 0; m < C; ++m) row_map[v * C + m + 1] = row_map[v * C + m] + degree * C;
  }
  const std::int64_t nnz = row_map[rows];
  std::vector<local_index> entries(nnz);
  for (local_index v = 0; v < n_vertices; ++v)
    for (int m = 0; m < C; ++m) {
      std::int64_t e = row_map[v * C + m];
      for (std::int64_t p = vertex_start[v]; p < vertex_start[v + 1]; ++p)
        for (int mm = 0; mm < C; ++mm) entries[e++] = neighbours[p] * C + mm;
    }

  using mem = typename ExecSpace::memory_space;
  using HU = Kokkos::MemoryUnmanaged;
  Kokkos::View<std::int64_t*, mem> d_rows("tensormg::low_order_csr::row_map", rows + 1);
  Kokkos::View<local_index*, mem> d_cols("tensormg::low_order_csr::entries", nnz);
  Kokkos::View<double*, mem> d_vals("tensormg::low_order_csr::values", nnz);
  Kokkos::View<std::int64_t*, mem> d_vertex_start("tensormg::low_order_csr::vertex_start", n_vertices + 1);
  Kokkos::View<local_index*, mem> d_neighbours("tensormg::low_order_csr::neighbours", neighbours.size());
  Kokkos::deep_copy(d_rows, Kokkos::View<const std::int64_t*, Kokkos::HostSpace, HU>(row_map.data(), rows + 1));
  Kokkos::deep_copy(d_cols, Kokkos::View<const local_index*, Kokkos::HostSpace, HU>(entries.data(), nnz));
  Kokkos::deep_copy(d_vertex_start,
                    Kokkos::View<const std::int64_t*, Kokkos::HostSpace, HU>(vertex_start.data(), n_vertices + 1));
  Kokkos::deep_copy(d_neighbours,
                    Kokkos::View<const local_index*, Kokkos::HostSpace, HU>(neighbours.data(), neighbours.size()));
  const auto& L = *layout_;
  if (C == 1)
    Kokkos::parallel_for("tensormg::low_order_csr::assemble", Kokkos::RangePolicy<ExecSpace>(0, n_cells),
                         AssembleKernel<ExecSpace, 1>{L.cells(), L.points(), L.coefficient(), L.lame_lambda(),
                                                      L.lame_mu(), d_vertex_start, d_rows, d_neighbours, d_vals});
  else
    Kokkos::parallel_for("tensormg::low_order_csr::assemble", Kokkos::RangePolicy<ExecSpace>(0, n_cells),
                         AssembleKernel<ExecSpace, 3>{L.cells(), L.points(), L.coefficient(), L.lame_lambda(),
                                                      L.lame_mu(), d_vertex_start, d_rows, d_neighbours, d_vals});
  Kokkos::fence();
  matrix_ = matrix_type("tensormg::low_order_csr", rows, rows, nnz, d_vals, d_rows, d_cols);
}

template <class ExecSpace>
void AssembledLowOrder<ExecSpace>::vmult(vector_type& dst, const vector_type& src) const {
  ScopedRegion region("tensormg::low_order::spmv");
  src.update_ghosts();
  KokkosSparse::spmv("N", 1.0, matrix_, src.view(), 0.0, dst.view());
  dst.compress_add();
  const auto constrained = layout_->constrained_dofs();
  const auto d = dst.view(), s = src.view();
  Kokkos::parallel_for(
      "tensormg::low_order_csr::constrained", Kokkos::RangePolicy<ExecSpace>(0, constrained.extent(0)),
      KOKKOS_LAMBDA(local_index i) { d(constrained(i)) = s(constrained(i)); });
}

template <class ExecSpace>
void AssembledLowOrder<ExecSpace>::stream_matrix(vector_type& dst, const vector_type& src) const {
  ScopedRegion region("tensormg::low_order::noop_spmv");
  // Flat and coalesced: a sweep over the entries reads every value and column index, a sweep over
  // the rows every row offset and src entry and writes dst. The sum keeps the reads alive.
  const auto row_map = matrix_.graph.row_map;
  const auto cols = matrix_.graph.entries;
  const auto vals = matrix_.values;
  const auto d = dst.view(), s = src.view();
  // Four entries per index, summed as a tree, so that on CPUs the reduction's chain of additions
  // does not hold the sweep below the memory bandwidth.
  const std::int64_t nnz = matrix_.nnz();
  double sum = 0;
  Kokkos::parallel_reduce(
      "tensormg::low_order_csr::stream_entries", Kokkos::RangePolicy<ExecSpace>(0, (nnz + 3) / 4),
      KOKKOS_LAMBDA(std::int64_t i, double& acc) {
        double part[4] = {0, 0, 0, 0};
        for (int j = 0; j < 4; ++j)
          if (4 * i + j < nnz) part[j] = vals(4 * i + j) * double(cols(4 * i + j));
        acc += (part[0] + part[1]) + (part[2] + part[3]);
      },
      sum);
  Kokkos::parallel_for(
      "tensormg::low_order_csr::stream_rows", Kokkos::RangePolicy<ExecSpace>(0, matrix_.numRows()),
      KOKKOS_LAMBDA(local_index r) { d(r) = s(r) * double(row_map(r)); });
  stream_sum_ = sum;
}

template <class ExecSpace>
double AssembledLowOrder<ExecSpace>::matrix_bytes() const {
  return double(matrix_.nnz()) * (sizeof(double) + sizeof(local_index)) +
         double(matrix_.numRows() + 1) * sizeof(std::int64_t);
}

template <class ExecSpace>
Kokkos::View<double**, Kokkos::LayoutRight, typename ExecSpace::memory_space> dense_low_order_matrix(
    const HexLayout<ExecSpace>& layout, LowOrderProblem problem, global_index max_dofs) {
  using mem = typename ExecSpace::memory_space;
  const int C = n_components(problem);
  const MPI_Comm comm = layout.comm();
  const global_index n = layout.n_global_dofs();
  TENSORMG_CHECK_COLLECTIVE(comm, layout.components() == C,
                            "the dense " << to_string(problem) << " matrix needs a layout with " << C
                                         << " components per vertex");
  TENSORMG_CHECK_COLLECTIVE(comm, n <= max_dofs,
                            "the dense coarse solve takes at most " << max_dofs << " DoFs, the coarse level has " << n);
  Kokkos::View<double**, Kokkos::LayoutRight, mem> a("tensormg::dense_low_order_matrix", n, n);
  const auto global = device_input<global_index, mem>(layout.global_vertex(), "tensormg::dense_low_order_matrix::global");
  const Kokkos::RangePolicy<ExecSpace> cells(0, layout.n_cells());
  if (C == 1)
    Kokkos::parallel_for("tensormg::dense_low_order_matrix::assemble", cells,
                         DenseAssembleKernel<ExecSpace, 1>{layout.cells(), layout.points(), layout.coefficient(),
                                                           layout.lame_lambda(), layout.lame_mu(), global, a});
  else
    Kokkos::parallel_for("tensormg::dense_low_order_matrix::assemble", cells,
                         DenseAssembleKernel<ExecSpace, 3>{layout.cells(), layout.points(), layout.coefficient(),
                                                           layout.lame_lambda(), layout.lame_mu(), global, a});
  // Identity rows of the owned Dirichlet DoFs (owned DoF i is global DoF first · C + i); each rank
  // sets its own, so the sum over the ranks has them once.
  const auto constrained = layout.constrained_dofs();
  const global_index first = layout.first_vertex() * C;
  Kokkos::parallel_for(
      "tensormg::dense_low_order_matrix::dirichlet", Kokkos::RangePolicy<ExecSpace>(0, constrained.extent(0)),
      KOKKOS_LAMBDA(local_index i) {
        const global_index g = first + constrained(i);
        a(g, g) = 1.0;
      });
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  if (ranks > 1) {
    // The ranks' cell sums added on every rank, in chunks whose counts fit an int.
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
    const std::size_t total = std::size_t(n) * std::size_t(n), chunk = std::size_t(1) << 30;
    for (std::size_t start = 0; start < total; start += chunk)
      MPI_Allreduce(MPI_IN_PLACE, host.data() + start, int(std::min(chunk, total - start)), MPI_DOUBLE, MPI_SUM, comm);
    Kokkos::deep_copy(a, host);
  }
  return a;
}

template class AssembledLowOrder<DefaultExec>;
TENSORMG_IF_SECOND_SPACE(template class AssembledLowOrder<SecondaryExec>;)
template Kokkos::View<double**, Kokkos::LayoutRight, DefaultExec::memory_space> dense_low_order_matrix<DefaultExec>(
    const HexLayout<DefaultExec>&, LowOrderProblem, global_index);
TENSORMG_IF_SECOND_SPACE(template Kokkos::View<double**, Kokkos::LayoutRight, SecondaryExec::memory_space>
                             dense_low_order_matrix<SecondaryExec>(const HexLayout<SecondaryExec>&, LowOrderProblem,
                                                                   global_index);)

}  // namespace tensormg
