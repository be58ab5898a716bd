#include "core/types.hpp"

#include "core/error.hpp"

namespace tensormg {

std::string to_string(Precision p) {
  switch (p) {
    case Precision::double_precision: return "double";
    case Precision::single_precision: return "float";
    case Precision::mixed: return "mixed";
  }
  return "unknown";
}

Precision parse_precision(const std::string& text) {
  if (text == "double") return Precision::double_precision;
  if (text == "float" || text == "single") return Precision::single_precision;
  if (text == "mixed") return Precision::mixed;
  throw InputError("precision '" + text + "' is not supported; use double, float or mixed");
}

}  // namespace tensormg
