#include "core/types.hpp"

#include "core/enum_names.hpp"

namespace tensormg {

namespace {
constexpr EnumName<Precision> precision_names[] = {{Precision::double_precision, "double"},
                                                   {Precision::single_precision, "float"},
                                                   {Precision::mixed, "mixed"},
                                                   {Precision::single_precision, "single"}};
}  // namespace

std::string to_string(Precision p) { return enum_name(precision_names, p); }
Precision parse_precision(const std::string& text) { return parse_enum(precision_names, text, "precision"); }

}  // namespace tensormg
