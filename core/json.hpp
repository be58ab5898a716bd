#pragma once
/// @file
/// A small JSON value for run records and benchmark results (write-only: tensormg never parses its
/// own records in C++; post-processing reads them with Python).

#include <cstdint>
#include <list>
#include <string>
#include <utility>
#include <vector>

namespace tensormg {

class Json {
 public:
  enum class Kind { null, boolean, number, integer, string, array, object };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : kind_(Kind::boolean), bool_(b) {}
  Json(double x) : kind_(Kind::number), number_(x) {}
  Json(float x) : Json(static_cast<double>(x)) {}
  Json(int x) : kind_(Kind::integer), integer_(x) {}
  Json(long x) : kind_(Kind::integer), integer_(x) {}
  Json(long long x) : kind_(Kind::integer), integer_(x) {}
  Json(unsigned x) : kind_(Kind::integer), integer_(x) {}
  Json(unsigned long x) : kind_(Kind::integer), integer_(static_cast<std::int64_t>(x)) {}
  Json(unsigned long long x) : kind_(Kind::integer), integer_(static_cast<std::int64_t>(x)) {}
  Json(const char* s) : kind_(Kind::string), string_(s) {}
  Json(std::string s) : kind_(Kind::string), string_(std::move(s)) {}
  template <class T>
  Json(const std::vector<T>& values) : kind_(Kind::array) {
    for (const auto& v : values) array_.emplace_back(v);
  }

  static Json object() {
    Json j;
    j.kind_ = Kind::object;
    return j;
  }
  static Json array() {
    Json j;
    j.kind_ = Kind::array;
    return j;
  }

  Kind kind() const { return kind_; }
  /// Object member access; turns a null value into an object. Keys keep insertion order, and the
  /// returned reference stays valid when more members are added.
  Json& operator[](const std::string& key);
  /// Appends to an array; turns a null value into an array.
  void push_back(Json value);

  /// Serializes; indent < 0 gives one line. Non-finite numbers become null (JSON has no NaN).
  std::string dump(int indent = 2) const;

 private:
  void dump_to(std::string& out, int indent, int depth) const;
  Kind kind_ = Kind::null;
  bool bool_ = false;
  double number_ = 0;
  std::int64_t integer_ = 0;
  std::string string_;
  // Lists, not vectors: references returned by operator[] stay valid while members are added.
  std::list<Json> array_;
  std::list<std::pair<std::string, Json>> members_;
};

/// Escapes a string for JSON.
std::string json_escape(const std::string& s);

}  // namespace tensormg
