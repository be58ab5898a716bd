#pragma once
/// @file
/// From a run-time (dim, degree) to the kernels compiled for it: every kernel family (the Laplace
/// operator, the vertex-patch smoother) instantiates a function template per (dim, k) and looks its
/// table up here, so the supported degrees and the dispatch are written once.

#include <type_traits>
#include <utility>  // std::integer_sequence

#include "core/error.hpp"

namespace tensormg {

/// The highest degree the kernels are compiled for in dim dimensions (2D: 10, 3D: 8); the one
/// definition every layout, table, driver and test asks.
constexpr int max_degree(int dim) { return dim == 2 ? 10 : 8; }

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
/// degree; throws InputError for degrees outside 1..max_degree(dim).
template <class Table, class Make>
Table kernel_table(int dim, int degree, const Make& make) {
  TENSORMG_CHECK((dim == 2 || dim == 3) && degree >= 1 && degree <= max_degree(dim),
                 "degree " << degree << " is not supported in " << dim << "D; use 1.." << max_degree(dim));
  return dim == 2 ? detail::kernel_table_among<2, Table>(degree, std::make_integer_sequence<int, max_degree(2)>{}, make)
                  : detail::kernel_table_among<3, Table>(degree, std::make_integer_sequence<int, max_degree(3)>{}, make);
}

}  // namespace tensormg
