#include "discretization/gmsh_io.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/output_file.hpp"

namespace tensormg {

namespace {

/// What a token should be, for error messages: a string, or a callable that makes one (built only on error).
std::string describe(const std::string& what) { return what; }
template <class F, class = std::enable_if_t<std::is_invocable_r_v<std::string, const F&>>>
std::string describe(const F& what) {
  return what();
}

/// Whitespace-separated tokens of a text, with the 1-based line of each. Tokens are views into the current
/// line: valid until the next token is read.
class Tokenizer {
 public:
  Tokenizer(std::istream& in, const std::string& name) : in_(in), name_(name) {}

  /// The next token, or false at the end of the file.
  bool next(std::string_view& token) {
    while (pos_ >= line_text_.size() || !skip_space()) {
      if (!std::getline(in_, line_text_)) return false;
      ++line_;
      pos_ = 0;
    }
    const std::size_t start = pos_;
    while (pos_ < line_text_.size() && !is_space(line_text_[pos_])) ++pos_;
    token = std::string_view(line_text_).substr(start, pos_ - start);
    token_line_ = line_;
    return true;
  }
  /// The next token; what it should be is named in the error at the end of the file.
  template <class What>
  std::string_view expect(const What& what) {
    std::string_view token;
    if (!next(token)) fail(lines(), "unexpected end of file (expected " + describe(what) + ")");
    return token;
  }
  /// Fails unless the next token is exactly keyword.
  void keyword(const std::string& word, const std::string& context) {
    const std::string_view t = expect(word);
    if (t != word) fail(token_line_, "expected " + word + " " + context + ", found '" + std::string(t) + "'");
  }
  template <class What>
  long long integer(const What& what) {
    std::string_view t = expect(what);
    const char* first = t.data() + (t.size() > 1 && t[0] == '+');
    long long v = 0;
    const auto [end, error] = std::from_chars(first, t.data() + t.size(), v);
    if (error != std::errc() || end != t.data() + t.size()) not_a_number(t, describe(what), "an integer");
    return v;
  }
  /// A non-negative count.
  template <class What>
  long long count(const What& what) {
    const long long v = integer(what);
    if (v < 0) fail(token_line_, describe(what) + " must not be negative (found " + std::to_string(v) + ")");
    return v;
  }
  template <class What>
  double real(const What& what) {
    const std::string_view t = expect(what);
    // The token ends at a blank or at the end of the line's (null-terminated) text, where strtod stops too.
    char* end = nullptr;
    const double v = std::strtod(t.data(), &end);
    if (end != t.data() + t.size() || t.empty()) not_a_number(t, describe(what), "a number");
    return v;
  }
  /// Consumes tokens up to and including end_word.
  void skip_to(const std::string& end_word, const std::string& section, long section_line) {
    std::string_view t;
    while (next(t))
      if (t == end_word) return;
    fail(lines(), "unexpected end of file: " + section + " at line " + std::to_string(section_line) + " has no " +
                      end_word);
  }
  /// Line of the last token returned.
  long token_line() const { return token_line_; }
  /// Number of lines read so far (the last line once the end is reached).
  long lines() const { return line_ == 0 ? 1 : line_; }
  [[noreturn]] void fail(long line, const std::string& message) const {
    throw InputError(name_ + ":" + std::to_string(line) + ": " + message);
  }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }
  /// Moves past blanks; false if the line has no more tokens.
  bool skip_space() {
    while (pos_ < line_text_.size() && is_space(line_text_[pos_])) ++pos_;
    return pos_ < line_text_.size();
  }
  [[noreturn]] void not_a_number(std::string_view token, const std::string& what, const char* kind) const {
    std::string message = "expected " + what + " (" + kind + "), found '" + std::string(token) + "'";
    if (!token.empty() && token[0] == '$') message += " (the section ends before the count it declares)";
    fail(token_line_, message);
  }

  std::istream& in_;
  std::string name_;
  std::string line_text_;
  std::size_t pos_ = 0;
  long line_ = 0, token_line_ = 0;
};

struct ElementType {
  int dim, nodes;
  const char* name;
};

/// Gmsh's element types (number of nodes and dimension), as far as a file may carry them.
bool gmsh_element_type(long long type, ElementType& t) {
  static const std::map<long long, ElementType> types = {
      {1, {1, 2, "2-node lines"}},           {2, {2, 3, "3-node triangles"}},
      {3, {2, 4, "4-node quadrangles"}},     {4, {3, 4, "4-node tetrahedra"}},
      {5, {3, 8, "8-node hexahedra"}},       {6, {3, 6, "6-node prisms"}},
      {7, {3, 5, "5-node pyramids"}},        {8, {1, 3, "3-node lines"}},
      {9, {2, 6, "6-node triangles"}},       {10, {2, 9, "9-node quadrangles"}},
      {11, {3, 10, "10-node tetrahedra"}},   {12, {3, 27, "27-node hexahedra"}},
      {13, {3, 18, "18-node prisms"}},       {14, {3, 14, "14-node pyramids"}},
      {15, {0, 1, "points"}},                {16, {2, 8, "8-node quadrangles"}},
      {17, {3, 20, "20-node hexahedra"}},    {18, {3, 15, "15-node prisms"}},
      {19, {3, 13, "13-node pyramids"}},     {20, {2, 9, "9-node triangles"}},
      {21, {2, 10, "10-node triangles"}},    {22, {2, 12, "12-node triangles"}},
      {23, {2, 15, "15-node triangles"}},    {24, {2, 15, "15-node triangles"}},
      {25, {2, 21, "21-node triangles"}},    {26, {1, 4, "4-node lines"}},
      {27, {1, 5, "5-node lines"}},          {28, {1, 6, "6-node lines"}},
      {29, {3, 20, "20-node tetrahedra"}},   {30, {3, 35, "35-node tetrahedra"}},
      {31, {3, 56, "56-node tetrahedra"}},   {36, {2, 16, "16-node quadrangles"}},
      {37, {2, 25, "25-node quadrangles"}},  {92, {3, 64, "64-node hexahedra"}},
      {93, {3, 125, "125-node hexahedra"}},
  };
  const auto it = types.find(type);
  if (it == types.end()) return false;
  t = it->second;
  return true;
}

/// Everything parse_gmsh collects before the tags are resolved.
struct GmshReader {
  Tokenizer tok;
  std::string name;
  HexMesh mesh;
  std::unordered_map<long long, global_index> node_index;  ///< Gmsh node tag → our vertex
  std::vector<long long> cell_entity, face_entity;           ///< entity tag of each cell / face
  std::map<long long, int> surface_physical, volume_physical; ///< entity tag → first physical tag
  bool have_nodes = false, have_elements = false;

  GmshReader(std::istream& in, const std::string& n) : tok(in, n), name(n) {}

  void mesh_format() {
    std::string_view t;
    if (!tok.next(t)) tok.fail(1, "empty file: expected $MeshFormat (a Gmsh 4.1 ASCII mesh)");
    if (t != "$MeshFormat")
      tok.fail(tok.token_line(), "expected $MeshFormat (a Gmsh 4.1 ASCII mesh), found '" + std::string(t) + "'");
    const std::string version(tok.expect("the format version"));
    const long version_line = tok.token_line();
    if (version[0] == '$') tok.fail(version_line, "expected the format version (4.1), found '" + version + "'");
    const long long file_type = tok.integer("the file type (0 for ASCII)");
    if (file_type != 0)
      tok.fail(tok.token_line(), file_type == 1 ? "binary .msh files are not supported; save the mesh as ASCII "
                                                  "(Gmsh option Mesh.Binary = 0)"
                                                : "file type " + std::to_string(file_type) +
                                                      " is not 0 (ASCII)");
    if (version != "4.1")
      tok.fail(version_line, "mesh format version " + version + " is not supported; only 4.1 "
                             "(Gmsh option Mesh.MshFileVersion = 4.1)");
    tok.integer("the data size");
    tok.keyword("$EndMeshFormat", "after the format line");
  }

  void physical_names(long section_line) {
    const long long n = tok.count("the number of physical names");
    for (long long i = 0; i < n; ++i) {
      tok.integer("the dimension of physical name " + std::to_string(i + 1));
      tok.integer("the tag of physical name " + std::to_string(i + 1));
      std::string_view t = tok.expect("a quoted physical name");
      const long line = tok.token_line();
      if (t.empty() || t[0] != '"') tok.fail(line, "expected a quoted physical name, found '" + std::string(t) + "'");
      while (t.size() < 2 || t.back() != '"') {  // a name with blanks spans several tokens of its line
        t = tok.expect("the closing quote of a physical name");
        if (tok.token_line() != line) tok.fail(line, "physical name without its closing quote");
      }
    }
    tok.keyword("$EndPhysicalNames", "after the " + std::to_string(n) + " physical names declared at line " +
                                         std::to_string(section_line));
  }

  void entities(long section_line) {
    long long counts[4];
    const char* kinds[4] = {"points", "curves", "surfaces", "volumes"};
    for (int d = 0; d < 4; ++d) counts[d] = tok.count(std::string("the number of ") + kinds[d]);
    for (int d = 0; d < 4; ++d)
      for (long long i = 0; i < counts[d]; ++i) {
        const std::string what = std::string(kinds[d]) + " entity " + std::to_string(i + 1);
        const long long tag = tok.integer("the tag of " + what);
        const std::string box = (d == 0 ? "a coordinate of " : "the bounding box of ") + what;
        for (int c = 0; c < (d == 0 ? 3 : 6); ++c) tok.real(box);
        const long long n_physical = tok.count("the number of physical tags of " + what);
        for (long long p = 0; p < n_physical; ++p) {
          const long long physical = tok.integer("a physical tag of " + what);
          if (p == 0 && d >= 2) {
            if (physical < std::numeric_limits<int>::min() || physical > std::numeric_limits<int>::max())
              tok.fail(tok.token_line(), "physical tag " + std::to_string(physical) + " does not fit an int");
            (d == 2 ? surface_physical : volume_physical)[tag] = int(physical);
          }
        }
        if (d > 0) {
          const long long n_bounding = tok.count("the number of bounding entities of " + what);
          for (long long b = 0; b < n_bounding; ++b) tok.integer("a bounding entity of " + what);
        }
      }
    tok.keyword("$EndEntities", "after the entities declared at line " + std::to_string(section_line));
  }

  void nodes(long section_line) {
    if (have_nodes) tok.fail(section_line, "a second $Nodes section");
    have_nodes = true;
    const long long n_blocks = tok.count("the number of node blocks");
    const long long n_nodes = tok.count("the number of nodes");
    const long header_line = tok.token_line();
    tok.integer("the smallest node tag");
    tok.integer("the largest node tag");
    const std::size_t reserve = std::size_t(std::min<long long>(n_nodes, 1 << 24));
    node_index.reserve(reserve);
    mesh.points.reserve(3 * reserve);
    long long total = 0;
    std::vector<long long> tags;
    for (long long b = 0; b < n_blocks; ++b) {
      const std::string what = "node block " + std::to_string(b + 1) + " of " + std::to_string(n_blocks);
      const long long dim = tok.integer("the entity dimension of " + what);
      if (dim < 0 || dim > 3) tok.fail(tok.token_line(), "entity dimension " + std::to_string(dim) + " of " + what +
                                                         " is not 0, 1, 2 or 3");
      tok.integer("the entity tag of " + what);
      const long long parametric = tok.integer("the parametric flag of " + what);
      if (parametric != 0)
        tok.fail(tok.token_line(), "parametric node coordinates (" + what + ") are not supported; save the mesh "
                                   "without them (Gmsh option Mesh.SaveParametric = 0)");
      const long long n = tok.count("the number of nodes in " + what);
      tags.clear();
      for (long long i = 0; i < n; ++i) {
        const long long tag = tok.integer([&] { return "a node tag of " + what; });
        if (!node_index.emplace(tag, global_index(node_index.size())).second)
          tok.fail(tok.token_line(), "node tag " + std::to_string(tag) + " is defined twice");
        tags.push_back(tag);
      }
      for (long long i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c) {
          const double x = tok.real([&] { return "a coordinate of node " + std::to_string(tags[std::size_t(i)]); });
          if (!std::isfinite(x))
            tok.fail(tok.token_line(), "coordinate " + std::to_string(c) + " of node " +
                                           std::to_string(tags[std::size_t(i)]) + " is not finite");
          mesh.points.push_back(x);
        }
      total += n;
    }
    tok.keyword("$EndNodes", "after the " + std::to_string(n_blocks) + " node blocks declared at line " +
                                 std::to_string(section_line));
    if (total != n_nodes)
      tok.fail(tok.token_line(), "the header at line " + std::to_string(header_line) + " declares " +
                                     std::to_string(n_nodes) + " nodes, the blocks hold " + std::to_string(total));
  }

  global_index vertex(long long tag, long long element) {
    const auto it = node_index.find(tag);
    if (it == node_index.end())
      tok.fail(tok.token_line(), "element " + std::to_string(element) + " uses node tag " + std::to_string(tag) +
                                     ", which $Nodes does not define");
    return it->second;
  }

  void elements(long section_line) {
    if (have_elements) tok.fail(section_line, "a second $Elements section");
    if (!have_nodes) tok.fail(section_line, "$Elements before $Nodes");
    have_elements = true;
    const long long n_blocks = tok.count("the number of element blocks");
    const long long n_elements = tok.count("the number of elements");
    const long header_line = tok.token_line();
    tok.integer("the smallest element tag");
    tok.integer("the largest element tag");
    long long total = 0;
    for (long long b = 0; b < n_blocks; ++b) {
      const std::string what = "element block " + std::to_string(b + 1) + " of " + std::to_string(n_blocks);
      const long long dim = tok.integer("the entity dimension of " + what);
      if (dim < 0 || dim > 3) tok.fail(tok.token_line(), "entity dimension " + std::to_string(dim) + " of " + what +
                                                         " is not 0, 1, 2 or 3");
      const long long entity = tok.integer("the entity tag of " + what);
      const long long type = tok.integer("the element type of " + what);
      ElementType info{};
      if (!gmsh_element_type(type, info)) tok.fail(tok.token_line(), "unknown element type " + std::to_string(type));
      if (info.dim == 3 && type != 5)
        tok.fail(tok.token_line(), "element type " + std::to_string(type) + " is not supported; only first-order "
                                   "hexahedra (type 5), not " + info.name);
      if (info.dim == 2 && (type == 10 || type == 16 || type == 36 || type == 37))
        tok.fail(tok.token_line(), "element type " + std::to_string(type) + " is not supported; only first-order "
                                   "quadrangles (type 3) on boundary surfaces, not " + info.name);
      if (info.dim != dim)
        tok.fail(tok.token_line(), "element type " + std::to_string(type) + " (" + info.name + ") has dimension " +
                                       std::to_string(info.dim) + ", but " + what + " is on an entity of dimension " +
                                       std::to_string(dim));
      const long long n = tok.count("the number of elements in " + what);
      for (long long e = 0; e < n; ++e) {
        const long long element = tok.integer([&] { return "an element tag of " + what; });
        const auto node_what = [&] { return "a node tag of element " + std::to_string(element); };
        if (type == 5) {
          global_index v[8];
          for (int i = 0; i < 8; ++i) v[hex_vtk_order[i]] = vertex(tok.integer(node_what), element);
          mesh.cells.insert(mesh.cells.end(), v, v + 8);
          cell_entity.push_back(entity);
        } else if (type == 3) {
          for (int i = 0; i < 4; ++i) mesh.boundary_faces.push_back(vertex(tok.integer(node_what), element));
          face_entity.push_back(entity);
        } else {
          for (int i = 0; i < info.nodes; ++i) tok.integer(node_what);
        }
      }
      total += n;
    }
    tok.keyword("$EndElements", "after the " + std::to_string(n_blocks) + " element blocks declared at line " +
                                    std::to_string(section_line));
    if (total != n_elements)
      tok.fail(tok.token_line(), "the header at line " + std::to_string(header_line) + " declares " +
                                     std::to_string(n_elements) + " elements, the blocks hold " +
                                     std::to_string(total));
    if (cell_entity.empty()) tok.fail(tok.token_line(), "the mesh has no hexahedra (element type 5)");
  }

  /// The physical tag of an entity if $Entities gives one, else the entity tag.
  int tag_of(long long entity, const std::map<long long, int>& physical) const {
    const auto it = physical.find(entity);
    if (it != physical.end()) return it->second;
    if (entity < std::numeric_limits<int>::min() || entity > std::numeric_limits<int>::max())
      throw InputError(name + ": entity tag " + std::to_string(entity) + " does not fit an int");
    return int(entity);
  }

  HexMesh read() {
    mesh_format();
    std::string_view view;
    while (tok.next(view)) {
      const std::string t(view);
      const long line = tok.token_line();
      if (t.empty() || t[0] != '$') tok.fail(line, "expected a section ($Name), found '" + t + "'");
      if (t == "$MeshFormat") tok.fail(line, "a second $MeshFormat section");
      else if (t == "$PhysicalNames") physical_names(line);
      else if (t == "$Entities") entities(line);
      else if (t == "$Nodes") nodes(line);
      else if (t == "$Elements") elements(line);
      else if (t.compare(0, 4, "$End") == 0) tok.fail(line, t + " without its section");
      else tok.skip_to("$End" + t.substr(1), t, line);
    }
    if (!have_nodes) tok.fail(tok.lines(), "no $Nodes section");
    if (!have_elements) tok.fail(tok.lines(), "no $Elements section");
    mesh.cell_tags.resize(cell_entity.size());
    for (std::size_t c = 0; c < cell_entity.size(); ++c) mesh.cell_tags[c] = tag_of(cell_entity[c], volume_physical);
    mesh.boundary_tags.resize(face_entity.size());
    for (std::size_t f = 0; f < face_entity.size(); ++f)
      mesh.boundary_tags[f] = tag_of(face_entity[f], surface_physical);
    try {
      check_hex_mesh(mesh);
    } catch (const InputError& e) {
      throw InputError(name + ": " + e.what());
    }
    return std::move(mesh);
  }
};

}  // namespace

HexMesh parse_gmsh(std::istream& in, const std::string& name) {
  GmshReader reader(in, name);
  return reader.read();
}

HexMesh read_gmsh(const std::string& path) {
  std::ifstream in(path);
  TENSORMG_CHECK(in, "cannot open '" << path << "': " << std::strerror(errno));
  return parse_gmsh(in, path);
}

std::string gmsh_text(const HexMesh& mesh) {
  const global_index nv = mesh.n_vertices(), nc = mesh.n_cells(), nf = mesh.n_boundary_faces();

  // One entity per distinct tag, numbered 1.. in increasing tag order; bounding boxes of their vertices.
  struct Entity {
    int tag = 0;
    double box[6] = {0, 0, 0, 0, 0, 0};
    bool empty = true;
  };
  const auto make_entities = [&](const std::vector<int>& tags, const std::vector<global_index>& conn, int per) {
    std::map<int, Entity> entities;
    for (std::size_t e = 0; e < tags.size(); ++e) {
      Entity& entity = entities[tags[e]];
      for (int v = 0; v < per; ++v) {
        const global_index p = conn[e * per + v];
        for (int d = 0; d < 3; ++d) {
          const double x = mesh.points[std::size_t(3 * p + d)];
          if (entity.empty || x < entity.box[d]) entity.box[d] = x;
          if (entity.empty || x > entity.box[3 + d]) entity.box[3 + d] = x;
        }
        entity.empty = false;
      }
    }
    int next = 1;
    for (auto& [tag, entity] : entities) entity.tag = next++;
    return entities;
  };
  const auto volumes = make_entities(mesh.cell_tags, mesh.cells, 8);
  const auto surfaces = make_entities(mesh.boundary_tags, mesh.boundary_faces, 4);

  // Appending to a string (numbers through to_chars / "%.17g") is several times faster than a stream.
  std::string out;
  out.reserve(std::size_t(60 * nv + 80 * nc + 50 * nf + 1024));
  const auto put = [&](std::string_view text) { out.append(text); };
  const auto put_int = [&](long long v) {
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    out.append(buffer, result.ptr);
  };
  const auto put_real = [&](double x) {
    char buffer[32];
    const int n = std::snprintf(buffer, sizeof buffer, "%.17g", x);
    out.append(buffer, std::size_t(n));
  };

  put("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$PhysicalNames\n");
  put_int(static_cast<long long>(surfaces.size() + volumes.size()));
  put("\n");
  for (const auto* entities : {&surfaces, &volumes})
    for (const auto& e : *entities) {
      const bool surface = entities == &surfaces;
      put(surface ? "2 " : "3 ");
      put_int(e.first);
      put(surface ? " \"boundary " : " \"region ");
      put_int(e.first);
      put("\"\n");
    }
  put("$EndPhysicalNames\n$Entities\n0 0 ");
  put_int(static_cast<long long>(surfaces.size()));
  put(" ");
  put_int(static_cast<long long>(volumes.size()));
  put("\n");
  for (const auto* entities : {&surfaces, &volumes})
    for (const auto& [tag, e] : *entities) {
      put_int(e.tag);
      for (double x : e.box) {
        put(" ");
        put_real(x);
      }
      put(" 1 ");  // one physical tag: the tag itself
      put_int(tag);
      if (entities == &surfaces) {
        put(" 0\n");  // no bounding curves
        continue;
      }
      put(" ");
      put_int(static_cast<long long>(surfaces.size()));
      for (const auto& s : surfaces) {
        put(" ");
        put_int(s.second.tag);
      }
      put("\n");
    }
  put("$EndEntities\n$Nodes\n");
  put(nv > 0 ? "1 " : "0 ");
  put_int(nv);
  put(nv > 0 ? " 1 " : " 0 ");
  put_int(nv);
  put("\n");
  if (nv > 0) {
    put("3 ");
    put_int(volumes.empty() ? 1 : volumes.begin()->second.tag);
    put(" 0 ");
    put_int(nv);
    put("\n");
    for (global_index v = 0; v < nv; ++v) {
      put_int(v + 1);
      put("\n");
    }
    for (global_index v = 0; v < nv; ++v)
      for (int d = 0; d < 3; ++d) {
        put_real(mesh.points[std::size_t(3 * v + d)]);
        put(d < 2 ? " " : "\n");
      }
  }
  put("$EndNodes\n");

  // Blocks of consecutive elements with the same tag, so that the order of cells and faces survives.
  const auto runs = [](const std::vector<int>& tags) {
    std::vector<std::pair<std::size_t, std::size_t>> r;  // [begin, end)
    for (std::size_t b = 0; b < tags.size();) {
      std::size_t e = b + 1;
      while (e < tags.size() && tags[e] == tags[b]) ++e;
      r.emplace_back(b, e);
      b = e;
    }
    return r;
  };
  const auto cell_runs = runs(mesh.cell_tags), face_runs = runs(mesh.boundary_tags);
  put("$Elements\n");
  put_int(static_cast<long long>(cell_runs.size() + face_runs.size()));
  put(" ");
  put_int(nc + nf);
  put(nc + nf > 0 ? " 1 " : " 0 ");
  put_int(nc + nf);
  put("\n");
  global_index element = 1;
  const auto put_block = [&](const std::pair<std::size_t, std::size_t>& run, bool cells) {
    const std::size_t b = run.first, e = run.second;
    put(cells ? "3 " : "2 ");
    put_int(cells ? volumes.at(mesh.cell_tags[b]).tag : surfaces.at(mesh.boundary_tags[b]).tag);
    put(cells ? " 5 " : " 3 ");
    put_int(static_cast<long long>(e - b));
    put("\n");
    for (std::size_t i = b; i < e; ++i) {
      put_int(element++);
      for (int v = 0; v < (cells ? 8 : 4); ++v) {
        put(" ");
        put_int(1 + (cells ? mesh.cells[8 * i + hex_vtk_order[v]] : mesh.boundary_faces[4 * i + v]));
      }
      put("\n");
    }
  };
  for (const auto& run : face_runs) put_block(run, false);
  for (const auto& run : cell_runs) put_block(run, true);
  put("$EndElements\n");
  return out;
}

void write_gmsh(const std::string& path, const HexMesh& mesh, bool overwrite) {
  TENSORMG_CHECK(overwrite || !path_exists(path),
                 "output file '" << path << "' exists; pass --overwrite to replace it");
  write_text_file_atomically(path, gmsh_text(mesh));
}

}  // namespace tensormg
