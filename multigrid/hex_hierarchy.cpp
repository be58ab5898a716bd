#include "multigrid/hex_hierarchy.hpp"

#include <algorithm>
#include <chrono>

#include "core/error.hpp"

namespace tensormg {

template <class ExecSpace>
HexHierarchy<ExecSpace>::HexHierarchy(const HexMesh& coarse, int refinements, int components,
                                      const HexDirichlet& dirichlet, const HexMaterialOptions& material, MPI_Comm comm,
                                      HexOrdering ordering) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  TENSORMG_CHECK_COLLECTIVE(comm, refinements >= 0 && refinements <= 12,
                            "the number of refinements must be in 0..12, given " << refinements);
  TENSORMG_CHECK_COLLECTIVE(comm, coarse.n_cells() >= ranks,
                            "the coarsest mesh has " << coarse.n_cells() << " cells, fewer than the " << ranks
                                                     << " ranks (the levels are cut on it); use at most "
                                                     << coarse.n_cells() << " ranks or a finer coarse mesh");
  // Indices first: the partition and the materials below read the points through the cells.
  collectively(comm, [&] { check_hex_mesh_connectivity(coarse); });
  std::vector<int> part = refinements > 0 ? hex_partition(coarse, ranks) : std::vector<int>{};
  // Materials are decided on the coarsest cells and inherited, like the ranks.
  HexMaterialOptions level_material = material;
  if (refinements > 0) {
    collectively(comm, [&] {
      TENSORMG_CHECK(material.layers >= 1, "--layers must be at least 1");
      level_material.cell_modulus = hex_cell_modulus(coarse, material);
    });
  }
  // The coarse cells' order; each refinement puts a cell's children in its place (no sort per level).
  std::vector<global_index> sequence;
  if (refinements > 0 && ordering == HexOrdering::morton)
    collectively(comm, [&] { sequence = hex_cell_sequence(coarse, part, ordering); });
  layouts_.push_back(std::make_shared<const layout_type>(coarse, components, dirichlet, level_material, comm, ordering,
                                                         part, sequence));
  const HexMesh* mesh = &coarse;
  HexMesh current;
  // The current mesh's arrays on the device: made by its refinement, read by its layout and by the
  // next refinement (on the host the vectors themselves are read).
  DeviceHexMesh<ExecSpace> on_device;
  for (int l = 1; l <= refinements; ++l) {
    HexRefinement r;
    DeviceHexMesh<ExecSpace> fine_on_device;
    DeviceHexStencils<ExecSpace> stencils;
    const auto start = std::chrono::steady_clock::now();
    collectively(comm, [&] {
      r = refine_hex_mesh<ExecSpace>(*mesh, l > 1 ? &on_device : nullptr, &fine_on_device, &stencils);
    });
    refinement_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::vector<int> fine_part(std::size_t(r.fine.n_cells()));
    for (std::size_t f = 0; f < fine_part.size(); ++f) fine_part[f] = part[HexRefinement::parent(global_index(f))];
    part = std::move(fine_part);
    std::vector<double> fine_modulus(part.size());
    for (std::size_t f = 0; f < part.size(); ++f)
      fine_modulus[f] = level_material.cell_modulus[HexRefinement::parent(global_index(f))];
    level_material.cell_modulus = std::move(fine_modulus);
    if (!sequence.empty()) sequence = refined_cell_sequence(sequence);
    layouts_.push_back(std::make_shared<const layout_type>(r.fine, components, dirichlet, level_material, comm,
                                                           ordering, part, sequence, &fine_on_device));
    on_device = std::move(fine_on_device);
    current = std::move(r.fine);
    r.fine = HexMesh{};
    mesh = &current;
    refinements_.push_back(std::move(r));
    stencils_.push_back(std::move(stencils));
  }
}

template <class ExecSpace>
std::vector<std::pair<std::string, double>> HexHierarchy<ExecSpace>::setup_seconds() const {
  std::vector<std::pair<std::string, double>> total{{"refinement", refinement_seconds_}};
  for (const auto& layout : layouts_)
    for (const auto& step : layout->setup_seconds()) {
      auto it = std::find_if(total.begin(), total.end(), [&](const auto& entry) { return entry.first == step.first; });
      if (it == total.end())
        total.push_back(step);
      else
        it->second += step.second;
    }
  return total;
}

template class HexHierarchy<DefaultExec>;
TENSORMG_IF_SECOND_SPACE(template class HexHierarchy<SecondaryExec>;)

}  // namespace tensormg
