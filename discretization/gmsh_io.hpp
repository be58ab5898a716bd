#pragma once
/// @file
/// Gmsh 4.1 ASCII meshes of first-order hexahedra: reading into a HexMesh (cells, boundary
/// quadrilaterals, their tags) and writing one back, so that parse_gmsh(gmsh_text(m)) == m.

#include <istream>
#include <string>

#include "discretization/hex_mesh.hpp"

namespace tensormg {

/// Reads a Gmsh 4.1 ASCII file: $MeshFormat, optional $PhysicalNames / $Entities (physical tags),
/// $Nodes, $Elements; other sections are skipped. Hexahedra (element type 5) become cells, the
/// quadrilaterals (type 3) of 2D entities boundary faces; points, lines and other elements are
/// ignored; higher-order and other 3D element types are refused. Node tags may be sparse; they are
/// renumbered 0.. in the order of the file. Throws InputError "<path>:<line>: <what is wrong>" for
/// a malformed file (binary format, version other than 4.1, bad counts, missing sections, unknown
/// node tags, no hexahedra, ...).
HexMesh read_gmsh(const std::string& path);
/// The same from a stream; name is used in the messages.
HexMesh parse_gmsh(std::istream& in, const std::string& name);

/// Gmsh 4.1 ASCII text of the mesh: one volume entity per cell tag, one surface entity per boundary
/// tag (physical tags equal to the tags), all nodes in one block of entity (3, first volume).
/// parse_gmsh(gmsh_text(m)) gives m back exactly (coordinates written with 17 significant digits).
std::string gmsh_text(const HexMesh& mesh);
/// Writes gmsh_text(mesh) to path through a temporary and a rename (core/output_file.hpp); refuses
/// an existing path unless overwrite.
void write_gmsh(const std::string& path, const HexMesh& mesh, bool overwrite);

}  // namespace tensormg
