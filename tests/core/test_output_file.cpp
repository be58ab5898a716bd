// Safe output files (core/output_file.hpp, issue 19): temporaries are created exclusively under
// fresh names (a link or a user's file at the old fixed names is never touched), a pair of files is
// replaced together or not at all, every failure removes its temporaries, names are XML-escaped in
// the XDMF sidecar, and the writability check refuses collectively before any work.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/hdf5_file.hpp"
#include "core/output_file.hpp"
#include "discretization/solution_output.hpp"
#include "tests/test_spaces.hpp"
#include "tests/test_utils.hpp"

namespace {

using namespace tensormg;
using namespace tensormg::testing;

/// Removes a test's folder once every rank is done with it.
void remove_folder(const std::string& f) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::system(("rm -rf '" + f + "'").c_str());
}

/// A folder of its own per test and rank count (all ranks agree on the name; rank 0 creates it).
std::string folder(const std::string& name) {
  const std::string f = "tensormg_test_output_" + name + "_np" + std::to_string(world_size());
  if (world_rank() == 0) {
    std::system(("rm -rf '" + f + "'").c_str());
    ::mkdir(f.c_str(), 0755);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return f;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::set<std::string> listing(const std::string& dir) {
  std::set<std::string> names;
  FILE* p = ::popen(("ls -A '" + dir + "'").c_str(), "r");
  char line[4096];
  while (p && std::fgets(line, sizeof line, p)) {
    std::string s(line);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    names.insert(s);
  }
  if (p) ::pclose(p);
  return names;
}

bool is_symlink(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

TEST(OutputFile, TemporaryNamesAreFreshHiddenAndBesideTheTarget) {
  std::set<std::string> names;
  for (int i = 0; i < 100; ++i) names.insert(temporary_name_for("some/dir/out.h5"));
  EXPECT_EQ(names.size(), 100u);
  for (const auto& n : names) EXPECT_EQ(n.rfind("some/dir/.out.h5.tensormg-", 0), 0u) << n;
  EXPECT_EQ(temporary_name_for("out.h5").rfind(".out.h5.tensormg-", 0), 0u);
}

TEST(OutputFile, NewFilesAreNeverCreatedThroughLinksOrOverFiles) {
  if (world_rank() != 0) return;
  const std::string d = "tensormg_test_output_links";
  std::system(("rm -rf " + d + " && mkdir " + d).c_str());
  write_text(d + "/victim.txt", "victim");
  ASSERT_EQ(::symlink("victim.txt", (d + "/link").c_str()), 0);
  ASSERT_EQ(::symlink("nowhere.txt", (d + "/dangling").c_str()), 0);
  EXPECT_THROW(write_new_file(d + "/link", "attack"), InputError);
  EXPECT_THROW(write_new_file(d + "/dangling", "attack"), InputError);
  EXPECT_THROW(write_new_file(d + "/victim.txt", "attack"), InputError);
  EXPECT_EQ(read_text(d + "/victim.txt"), "victim");
  EXPECT_FALSE(path_exists(d + "/nowhere.txt"));
  std::system(("rm -rf " + d).c_str());
}

TEST(OutputFile, SolutionOutputLeavesLinksAndUsersFilesAtTheOldTemporaryNamesAlone) {
  const std::string d = folder("symlink");
  const std::string out = d + "/sym.h5";
  if (world_rank() == 0) {
    write_text(d + "/victim.txt", "victim");
    // The fixed temporary names of earlier versions: a link to a victim, and a user's own file.
    ASSERT_EQ(::symlink("victim.txt", (out + ".tmp").c_str()), 0);
    ASSERT_EQ(::symlink("victim.txt", (out + ".xdmf.tmp").c_str()), 0);
    write_text(d + "/data.h5.tmp", "user data");
  }
  const auto layout = make_layout<DefaultExec>(make_mesh(2, {2, 2, 1}, 1), 2);
  DistributedVector<double, DefaultExec> v(layout->partitioner());
  write_solution(out, *layout, v, Json::object(), false);
  write_solution(d + "/data.h5", *layout, v, Json::object(), false);
  if (world_rank() == 0) {
    EXPECT_EQ(read_text(d + "/victim.txt"), "victim");
    EXPECT_TRUE(is_symlink(out + ".tmp"));
    EXPECT_TRUE(is_symlink(out + ".xdmf.tmp"));
    EXPECT_EQ(read_text(d + "/data.h5.tmp"), "user data");
    EXPECT_EQ(listing(d), (std::set<std::string>{"victim.txt", "sym.h5", "sym.h5.xdmf", "sym.h5.tmp", "sym.h5.xdmf.tmp",
                                                 "data.h5", "data.h5.xdmf", "data.h5.tmp"}));
  }
  remove_folder(d);
}

TEST(OutputFile, APairIsReplacedTogetherOrNotAtAll) {
  if (world_rank() != 0) return;
  const std::string d = "tensormg_test_output_pair";
  std::system(("rm -rf " + d + " && mkdir " + d).c_str());
  const std::string h5 = d + "/out.h5", xdmf = d + "/out.h5.xdmf";
  const auto old_pair = [&] {
    write_text(h5, "old data");
    write_text(xdmf, "old sidecar");
  };
  // A failed rename, first or second: the previous pair comes back, nothing else is left.
  for (int failing : {0, 1}) {
    old_pair();
    {
      OutputTransaction t;
      t.add_text(h5, "new data");
      t.add_text(xdmf, "new sidecar");
      int calls = 0;
      t.use_rename_for_testing([&](const char* from, const char* to) {
        if (calls++ == failing) return -1;
        return std::rename(from, to);
      });
      EXPECT_THROW(t.commit(), InputError);
    }
    EXPECT_EQ(read_text(h5), "old data") << "failing rename " << failing;
    EXPECT_EQ(read_text(xdmf), "old sidecar") << "failing rename " << failing;
    EXPECT_EQ(listing(d), (std::set<std::string>{"out.h5", "out.h5.xdmf"}));
  }
  // Abandoned before commit (a write failed): temporaries go, the previous pair stays.
  {
    OutputTransaction t;
    t.add_text(h5, "new data");
    EXPECT_EQ(listing(d).size(), 3u);
  }
  EXPECT_EQ(listing(d), (std::set<std::string>{"out.h5", "out.h5.xdmf"}));
  // Committed: the new pair, no temporaries or backups.
  {
    OutputTransaction t;
    t.add_text(h5, "new data");
    t.add_text(xdmf, "new sidecar");
    t.commit();
  }
  EXPECT_EQ(read_text(h5), "new data");
  EXPECT_EQ(read_text(xdmf), "new sidecar");
  EXPECT_EQ(listing(d), (std::set<std::string>{"out.h5", "out.h5.xdmf"}));
  std::system(("rm -rf " + d).c_str());
}

TEST(OutputFile, NamesAreEscapedInTheSidecar) {
  EXPECT_EQ(xml_escaped("a&b<c>\"d'e"), "a&amp;b&lt;c&gt;&quot;d&apos;e");
  const std::string text = xdmf_rectilinear(2, {3, 4}, "x&<y>\".h5", {"solution"});
  EXPECT_NE(text.find("x&amp;&lt;y&gt;&quot;.h5:/solution"), std::string::npos);
  EXPECT_EQ(text.find("x&<y>"), std::string::npos);
}

TEST(OutputFile, WritabilityIsCheckedCollectivelyBeforeAnyWork) {
  const std::string d = folder("writable");
  if (world_rank() == 0) write_text(d + "/exists.h5", "x");
  MPI_Barrier(MPI_COMM_WORLD);
  const auto refusal = [](const std::vector<std::string>& paths, bool overwrite) -> std::string {
    try {
      check_output_writable(paths, overwrite, MPI_COMM_WORLD);
    } catch (const InputError& e) {
      EXPECT_TRUE(e.collective());
      return e.what();
    }
    return "";
  };
  EXPECT_NE(refusal({""}, false).find("empty"), std::string::npos);
  EXPECT_NE(refusal({d}, false).find("is a folder"), std::string::npos);
  EXPECT_NE(refusal({d + "/"}, false).find("is a folder"), std::string::npos);
  EXPECT_NE(refusal({d + "/missing/out.h5"}, false).find("does not exist"), std::string::npos);
  EXPECT_NE(refusal({d + "/exists.h5/out.h5"}, false).find("is not a folder"), std::string::npos);
  EXPECT_NE(refusal({d + "/exists.h5"}, false).find("--overwrite"), std::string::npos);
  EXPECT_EQ(refusal({d + "/exists.h5"}, true), "");
  EXPECT_EQ(refusal({d + "/new.h5", d + "/new.h5.xdmf"}, false), "");
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    EXPECT_EQ(listing(d), (std::set<std::string>{"exists.h5"}));  // the probes are gone
  }
  remove_folder(d);
}

}  // namespace
