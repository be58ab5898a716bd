#pragma once
/// @file
/// The sum over the ranks of a whole vector held by every rank (a multigrid level replicated on
/// every rank, multigrid/transfer.cpp and multigrid/dg_transfer.cpp).

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include "core/halo_exchange.hpp"  // mpi_takes_memory_of, detail::mpi_type

namespace tensormg {

/// data = Σ over the ranks of comm of data (the whole View: a level replicated on every rank),
/// through host memory unless MPI takes the View's memory.
template <class View>
void allreduce_sum_in_place(const View& data, MPI_Comm comm) {
  using Number = typename View::value_type;
  using Exec = typename View::execution_space;
  if constexpr (mpi_takes_memory_of<Exec>()) {
    Exec().fence();
    MPI_Allreduce(MPI_IN_PLACE, data.data(), int(data.extent(0)), detail::mpi_type<Number>(), MPI_SUM, comm);
  } else {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), data);
    MPI_Allreduce(MPI_IN_PLACE, host.data(), int(host.extent(0)), detail::mpi_type<Number>(), MPI_SUM, comm);
    Kokkos::deep_copy(data, host);
  }
}

}  // namespace tensormg
