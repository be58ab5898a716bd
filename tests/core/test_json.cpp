// The JSON writer used by run records and benchmark results.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/json.hpp"

namespace {

using tensormg::Json;

TEST(Json, WritesNestedValuesInInsertionOrder) {
  Json j = Json::object();
  j["b"] = 1;
  j["a"] = "x\"y\n";
  j["list"] = std::vector<double>{0.5, 2.0};
  j["nested"]["ok"] = true;
  j["nested"]["none"] = nullptr;
  EXPECT_EQ(j.dump(-1), R"({"b":1,"a":"x\"y\n","list":[0.5,2],"nested":{"ok":true,"none":null}})");
}

TEST(Json, NonFiniteNumbersBecomeNull) {
  Json j = Json::array();
  j.push_back(std::numeric_limits<double>::quiet_NaN());
  j.push_back(std::numeric_limits<double>::infinity());
  j.push_back(1e-300);
  j.push_back(0.1);
  j.push_back(1.0 / 3.0);
  EXPECT_EQ(j.dump(-1), "[null,null,1e-300,0.1,0.33333333333333331]");
}

TEST(Json, ReferencesStayValidWhileMembersAreAdded) {
  Json j = Json::object();
  Json& first = j["first"];
  for (int i = 0; i < 100; ++i) j["k" + std::to_string(i)] = i;
  first["x"] = 1;
  EXPECT_EQ(j.dump(-1).rfind("{\"first\":{\"x\":1},\"k0\":0", 0), 0u);
}

TEST(Json, IndentsWhenAsked) {
  Json j;
  j["k"] = std::vector<int>{1};
  EXPECT_EQ(j.dump(2), "{\n  \"k\": [\n    1\n  ]\n}");
}

TEST(Json, EscapesControlCharacters) { EXPECT_EQ(tensormg::json_escape(std::string("\x01", 1)), "\\u0001"); }

}  // namespace
