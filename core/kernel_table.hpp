#pragma once
/// @file
/// From a run-time (dim, degree) to the kernels compiled for it: every kernel family (the Laplace
/// operator, the vertex-patch smoother) instantiates a function template per (dim, k) and looks its
/// table up here, so the supported degrees and the dispatch are written once.

#include <type_traits>
#include <utility>  // std::integer_sequence

#include "core/error.hpp"

namespace tensormg {

namespace detail {
template <int dim, class Table, class Make, int... i>
Table kernel_table_among(int degree, std::integer_sequence<int, i...>, const Make& make) {
  Table table{};
  ((degree == i + 1
        ? (void)(table = make(std::integral_constant<int, dim>{}, std::integral_constant<int, i + 1>{}))
        : (void)0),
   ...);
  return table;
}
}  // namespace detail

/// make(std::integral_constant<int, dim>, std::integral_constant<int, k>) for the run-time dim and
/// degree; throws InputError for degrees outside 1..10 (2D) and 1..8 (3D).
template <class Table, class Make>
Table kernel_table(int dim, int degree, const Make& make) {
  const int max_degree = dim == 2 ? 10 : 8;
  TENSORMG_CHECK((dim == 2 || dim == 3) && degree >= 1 && degree <= max_degree,
                 "degree " << degree << " is not supported in " << dim << "D; use 1.." << max_degree);
  return dim == 2 ? detail::kernel_table_among<2, Table>(degree, std::make_integer_sequence<int, 10>{}, make)
                  : detail::kernel_table_among<3, Table>(degree, std::make_integer_sequence<int, 8>{}, make);
}

}  // namespace tensormg
