#include "core/json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/error.hpp"

namespace tensormg {

Json& Json::operator[](const std::string& key) {
  if (kind_ == Kind::null) kind_ = Kind::object;
  TENSORMG_ASSERT(kind_ == Kind::object, "Json: member access on a non-object");
  for (auto& [k, v] : members_)
    if (k == key) return v;
  members_.emplace_back(key, Json());
  return members_.back().second;
}

void Json::push_back(Json value) {
  if (kind_ == Kind::null) kind_ = Kind::array;
  TENSORMG_ASSERT(kind_ == Kind::array, "Json: push_back on a non-array");
  array_.push_back(std::move(value));
}

std::string json_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string Json::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

void Json::dump_to(std::string& out, int indent, int depth) const {
  const auto newline = [&](int d) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * d), ' ');
  };
  switch (kind_) {
    case Kind::null: out += "null"; break;
    case Kind::boolean: out += bool_ ? "true" : "false"; break;
    case Kind::integer: out += std::to_string(integer_); break;
    case Kind::number: {
      if (!std::isfinite(number_)) {
        out += "null";
      } else {
        // Shortest of 15 or 17 significant digits that reads back to the same double.
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.15g", number_);
        if (std::strtod(buf, nullptr) != number_) std::snprintf(buf, sizeof buf, "%.17g", number_);
        out += buf;
      }
      break;
    }
    case Kind::string: out += '"' + json_escape(string_) + '"'; break;
    case Kind::array: {
      out += '[';
      bool first = true;
      for (const auto& value : array_) {
        if (!first) out += ',';
        first = false;
        newline(depth + 1);
        value.dump_to(out, indent, depth + 1);
      }
      if (!array_.empty()) newline(depth);
      out += ']';
      break;
    }
    case Kind::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : members_) {
        if (!first) out += ',';
        first = false;
        newline(depth + 1);
        out += '"' + json_escape(key) + "\":";
        if (indent >= 0) out += ' ';
        value.dump_to(out, indent, depth + 1);
      }
      if (!members_.empty()) newline(depth);
      out += '}';
      break;
    }
  }
}

}  // namespace tensormg
