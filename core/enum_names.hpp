#pragma once
/// @file
/// One name table per enum: to_string and parse both read it, and the error for an unknown name
/// lists the accepted ones. A value may have aliases (later rows); its first row names it.

#include <cstddef>
#include <string>

#include "core/error.hpp"

namespace tensormg {

template <class Enum>
struct EnumName {
  Enum value;
  const char* name;
};

/// The name of v (its first row in the table).
template <class Enum, std::size_t N>
std::string enum_name(const EnumName<Enum> (&table)[N], Enum v) {
  for (const auto& row : table)
    if (row.value == v) return row.name;
  return "unknown";
}

/// "a, b or c": the names of the table's values (aliases left out).
template <class Enum, std::size_t N>
std::string enum_choices(const EnumName<Enum> (&table)[N]) {
  std::string list;
  std::size_t shown = 0, total = 0;
  for (std::size_t i = 0; i < N; ++i)
    if (enum_name(table, table[i].value) == table[i].name) ++total;
  for (std::size_t i = 0; i < N; ++i) {
    if (enum_name(table, table[i].value) != table[i].name) continue;
    list += (shown == 0 ? "" : (shown + 1 == total ? " or " : ", ")) + std::string(table[i].name);
    ++shown;
  }
  return list;
}

/// The value named `text`; throws InputError "<what> '<text>' is not supported; use a, b or c".
template <class Enum, std::size_t N>
Enum parse_enum(const EnumName<Enum> (&table)[N], const std::string& text, const char* what) {
  for (const auto& row : table)
    if (text == row.name) return row.value;
  throw InputError(std::string(what) + " '" + text + "' is not supported; use " + enum_choices(table));
}

}  // namespace tensormg
