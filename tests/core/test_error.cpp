// User-input errors: local checks, collective agreement across ranks, and the precision parser.
#include <gtest/gtest.h>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/types.hpp"
#include "tests/test_spaces.hpp"

namespace {

using tensormg::InputError;

TEST(Error, LocalCheckThrowsWithTheMessage) {
  const int degree = 0;
  try {
    TENSORMG_CHECK(degree >= 1, "degree " << degree << " is not supported; use 1..8");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "degree 0 is not supported; use 1..8");
    EXPECT_FALSE(e.collective());
  }
  EXPECT_NO_THROW(TENSORMG_CHECK(degree == 0, "never"));
}

TEST(Error, CollectiveCheckPassesWhenAllRanksPass) {
  EXPECT_NO_THROW(TENSORMG_CHECK_COLLECTIVE(MPI_COMM_WORLD, true, "never"));
}

TEST(Error, CollectiveCheckThrowsTheLowestFailingRanksMessageOnEveryRank) {
  const int rank = tensormg::testing::world_rank();
  const int size = tensormg::testing::world_size();
  // The two highest ranks fail (one rank when running alone); rank size-2 is reported.
  const int first_bad = size >= 2 ? size - 2 : 0;
  try {
    TENSORMG_CHECK_COLLECTIVE(MPI_COMM_WORLD, rank < first_bad, "rank " << rank << " has no cells");
    FAIL() << "rank " << rank << " did not throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "rank " + std::to_string(first_bad) + " has no cells");
    EXPECT_TRUE(e.collective());
  }
}

TEST(Error, CollectivelyTurnsALocalFailureIntoAnErrorOnAllRanks) {
  const int rank = tensormg::testing::world_rank();
  const int size = tensormg::testing::world_size();
  try {
    tensormg::collectively(MPI_COMM_WORLD, [&] { TENSORMG_CHECK(rank != size - 1, "last rank refuses"); });
    FAIL() << "rank " << rank << " did not throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "last rank refuses");
    EXPECT_TRUE(e.collective());
  }
}

TEST(Precision, ParsesAndPrintsEveryValue) {
  using tensormg::Precision;
  for (const auto p : {Precision::double_precision, Precision::single_precision, Precision::mixed})
    EXPECT_EQ(tensormg::parse_precision(tensormg::to_string(p)), p);
  EXPECT_EQ(tensormg::parse_precision("single"), Precision::single_precision);
  try {
    tensormg::parse_precision("half");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("double, float or mixed"), std::string::npos);
  }
}

}  // namespace

namespace {
enum class Fruit { apple, pear, plum };
constexpr tensormg::EnumName<Fruit> fruit_names[] = {
    {Fruit::apple, "apple"}, {Fruit::pear, "pear"}, {Fruit::plum, "plum"}, {Fruit::pear, "poire"}};
}  // namespace

TEST(EnumNames, OneTableNamesParsesAndListsTheChoices) {
  using namespace tensormg;
  EXPECT_EQ(enum_name(fruit_names, Fruit::pear), "pear");
  EXPECT_EQ(parse_enum(fruit_names, "plum", "fruit"), Fruit::plum);
  EXPECT_EQ(parse_enum(fruit_names, "poire", "fruit"), Fruit::pear);  // an alias
  EXPECT_EQ(enum_choices(fruit_names), "apple, pear or plum");          // aliases left out
  try {
    parse_enum(fruit_names, "fig", "fruit");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "fruit 'fig' is not supported; use apple, pear or plum");
  }
}
