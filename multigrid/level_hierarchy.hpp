#pragma once
/// @file
/// The nested meshes of a brick and their layouts (continuous Q_k or DG, discretizations.hpp),
/// coarsest first (paper 000 §2.1, paper 002 §3): built once from the brick description, then
/// shared by everything that works on levels (the V-cycle's operators, smoothers and transfers,
/// the double start of mixed full multigrid, the driver's finest-level operator and right-hand
/// side).

#include <array>
#include <memory>
#include <vector>

#include "discretization/cartesian_mesh.hpp"
#include "discretization/discretizations.hpp"

namespace tensormg {

/// How the levels are spread over the ranks.
struct HierarchyOptions {
  /// Process grid of the distributed levels ({0, 0, 0}: the one choose_rank_grid picks for the
  /// finest mesh); its first dim entries must multiply to the rank count.
  std::array<int, 3> rank_grid{0, 0, 0};
  /// On several ranks: the levels up to the last one whose cells per direction are
  /// fewer than this many times the process grid's extent are replicated on every rank (each rank
  /// holds the whole level and solves it redundantly); the finer levels are distributed. 0 keeps
  /// only the coarsest level replicated (the tests' setting: tiny and empty rank boxes).
  int replicate_below_cells_per_rank = 2;
  /// ... and the levels of at most this many DoFs are replicated too (their halo exchanges cost
  /// more than their work: measured on the H100, perf/README.md "Multigrid on several ranks");
  /// -1: 2^17 on a device, 0 on the host.
  double replicate_below_dofs = -1;
  /// How the levels' vector ghost exchanges travel between ranks whose GPUs reach each other's
  /// memory (the layouts' partitioners; core/halo_exchange.hpp).
  HaloTransport transport = HaloTransport::automatic;
};

/// The refinement of the first level distributed over the ranks of process grid `grid` (the
/// levels below it are replicated): the first level above the coarsest whose coarser neighbour has
/// at least options.replicate_below_cells_per_rank cells per rank and direction and which has more
/// DoFs than options.replicate_below_dofs (-1: 2^17 on a device, 0 on the host); the finest
/// level when none has. LevelHierarchy's rule, also the memory estimate's.
int first_distributed_refinement(const BrickDescription& fine, int degree, bool discontinuous,
                                 const std::array<int, 3>& grid, const HierarchyOptions& options, bool on_host);

template <class ExecSpace, class Disc = ContinuousQk>
class LevelHierarchy {
 public:
  using discretization = Disc;
  using layout_type = typename Disc::template Layout<ExecSpace>;

  /// Levels from the first refinement of `fine` with at least two cells in every direction (the
  /// coarsest level is then made of whole vertex patches) up to `fine` itself. Collective; throws
  /// InputError when `fine` has fewer refinements than that.
  ///
  /// On several ranks, levels below first_distributed_level() live on MPI_COMM_SELF, whole on
  /// every rank; the distributed levels share one process grid and nest (level l's rank box is the
  /// last replicated level's box of that grid refined, so rank boundaries fall on even cells and
  /// every fine cell's parent is on its rank). The same for continuous Q_k and DG.
  LevelHierarchy(const BrickDescription& fine, int degree, MPI_Comm comm, HierarchyOptions options = {});

  /// The refinement of the coarsest level of a hierarchy over this brick.
  static int coarsest_refinement(const BrickDescription& fine);

  int n_levels() const { return static_cast<int>(layouts_.size()); }
  int degree() const { return layouts_.front()->degree(); }
  /// Refinements of the coarsest level.
  int coarsest_refinement() const { return coarsest_refinement_; }
  /// The first level on the whole communicator; the levels below it are replicated (0 on one rank).
  int first_distributed_level() const { return first_distributed_; }
  const std::shared_ptr<const layout_type>& layout(int level) const { return layouts_.at(level); }
  const std::shared_ptr<const layout_type>& finest() const { return layouts_.back(); }

 private:
  std::vector<std::shared_ptr<const layout_type>> layouts_;
  int coarsest_refinement_ = 0;
  int first_distributed_ = 0;
};

}  // namespace tensormg
