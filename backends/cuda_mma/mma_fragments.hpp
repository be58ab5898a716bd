#pragma once
/// @file
/// Where the values of a warp's `mma.sync.aligned.m8n8k4.row.col.f64` operands come from when an
/// N = 8 block contraction (core/block_contraction.hpp) runs on tensor cores, and the XOR-swizzled
/// scratch layout that makes those accesses free of shared-memory bank conflicts (paper 001 §4.1,
/// "MMA CF", Figs. 3–4). Plain host/device arithmetic, no CUDA: the kernel
/// (block_contraction_cuda.hpp) and the host test that counts bank conflicts
/// (tests/core/test_block_contraction.cpp) use the same functions.
///
/// The PTX fragments of m8n8k4 (lane = 4 g + t): A (8 × 4): a0 = A[g][t]; B (4 × 8): b0 = B[t][g];
/// C (8 × 8): c_i = C[g][2t + i]. A contraction along d is a product of the 1D matrix (8 × 8)
/// and the block seen as an 8 × 64 matrix (3D; 8 × 8 in 2D), in 8-line tiles, two k-steps of 4:
///  - d = 1, 2: C = A_1D · In, the 1D matrix is operand A (a = A_1D[g][t + 4s]), the block operand
///    B (b = In at position t + 4s along d, line g of the tile);
///  - d = 0: C = In · A_1Dᵀ, the block is operand A (a = In at x = t + 4s, line g), the matrix
///    operand B (b = A_1Dᵀ[t + 4s][g] = A_1D[g][t + 4s]: the same register as for d = 1, 2).
/// Either way a thread's result pair c_0, c_1 is two neighbours along x, stored as one 16-byte
/// value. The tiles: d = 0, 1: plane z = tile (lines y = g resp. x = g); d = 2: row y = tile
/// (lines x = g).

#include <Kokkos_Core.hpp>

namespace tensormg::cuda_mma {

/// XOR-swizzled layout of an 8 × 8 × 8 block of 8-byte values (a plane in 2D): value (x, y, z) at
///   64 z + 8 (y ⊕ (z & 1)) + (x ⊕ 4 ((y ⊕ z) >> 1 & 1)).
/// An 8-byte access of a half warp is conflict-free when its 16 offsets differ mod 16, a 16-byte
/// access of a quarter warp when its 8 offsets / 2 differ mod 8. Bits 0..3 of the offset are x0,
/// x1, x2 ⊕ y1 ⊕ z1, y0 ⊕ z0: the flips bring the coordinate that a fragment spreads over the
/// threads but the plain layout leaves out of the bank (y1 along x, the z bits along z) into
/// bits 2 and 3, and keep x0 so that neighbours along x stay adjacent (16-byte stores).
struct XorSwizzle8 {
  static constexpr const char* name = "xor-swizzled";
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int at(int x, int y, int z) {
    return 64 * z + 8 * (y ^ (z & 1)) + (x ^ ((((y ^ z) >> 1) & 1) << 2));
  }
};

/// The operand and result positions of the N = 8 FP64 tensor-core contraction.
struct MmaF64N8 {
  static constexpr int N = 8;
  /// 8-line tiles of a contraction: 8 in 3D (64 lines), 1 in 2D.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int tiles(int dim) { return dim == 2 ? 1 : 8; }
  /// Index into the row-major 8 × 8 matrix of lane's 1D-matrix register for k-step s.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int matrix_index(int lane, int s, bool transposed) {
    const int g = lane >> 2, t = lane & 3;
    return transposed ? (t + 4 * s) * N + g : g * N + t + 4 * s;
  }
  /// Block position (x, y, z) of lane's block register for k-step s of tile `tile` along d.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr void data_position(int d, int lane, int s, int tile, int (&c)[3]) {
    const int g = lane >> 2, k = (lane & 3) + 4 * s;
    c[0] = d == 0 ? k : g;
    c[1] = d == 0 ? g : d == 1 ? k : tile;
    c[2] = d == 2 ? k : tile;
  }
  /// Block position of lane's first result of tile `tile` along d (the second is at x + 1).
  KOKKOS_FORCEINLINE_FUNCTION static constexpr void result_position(int d, int lane, int tile, int (&c)[3]) {
    const int g = lane >> 2, t = lane & 3;
    c[0] = 2 * t;
    c[1] = d == 2 ? tile : g;
    c[2] = d == 2 ? g : tile;
  }
};

/// XOR-swizzled layout of a 16 × 16 × 16 block of 8-byte values (a plane in 2D) for the FP64
/// m16n8k16 contraction (MmaF64N16): value (x, y, z) at 256 z + 16 y + (x ⊕ f(s)), s = (y ⊕ z) & 3,
/// f(s) = 8 (s & 1) + 4 (s >> 1). An offset's bank pair is its x-part mod 16. The lanes of a load
/// spread over g (x, or y for d = 0) and over t (the position along d); f moves t's two bits into
/// x bits 2–3 (conflict-free 8-byte loads of half warps), and the order of f's bits puts g's low
/// bit into x bit 3, which keeps the 16-byte result stores of quarter warps (g = 0, 1) apart.
struct XorSwizzle16 {
  static constexpr const char* name = "xor-swizzled";
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int at(int x, int y, int z) {
    return 256 * z + 16 * y + (x ^ (8 * ((y ^ z) & 1) + 4 * (((y ^ z) >> 1) & 1)));
  }
};

/// The operand and result positions of the N = 16 FP64 tensor-core contraction
/// (`mma.m16n8k16.f64`, sm_90), lane = 4 g + t, k-slot i = 0..3 at position 4 i + t along d:
///  - d = 1, 2: a tile is 8 lines (x = 8 h + g) of one plane (d = 1: z) or row (d = 2: y); the 1D
///    matrix is operand A (a[2j] = A_1D[g][4j + t], a[2j+1] = A_1D[g + 8][4j + t]), the tile
///    operand B; results c0, c1 at output g along d, lines 2t, 2t + 1; c2, c3 at output g + 8;
///  - d = 0: a tile is 16 lines (y = g, g + 8) of one plane z, operand A; the matrix is operand B
///    (b[i] = A_1D[n][4i + t], n = g, then g + 8: two mma per tile); results along x.
/// 3D: 32 tiles for d = 1, 2, 16 for d = 0; 2D: 2 and 1.
struct MmaF64N16 {
  static constexpr int N = 16;
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int tiles(int dim, int d) {
    return (dim == 2 ? 1 : 16) * (d == 0 ? 1 : 2);
  }
  /// Block position of lane's operand value for k-slot i of tile `tile` along d; for d = 0 the
  /// row half r (0: line y = g, 1: y = g + 8), for d = 1, 2 r is unused.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr void data_position(int d, int lane, int i, int r, int tile,
                                                                  int (&c)[3]) {
    position(d, lane >> 2, 4 * i + (lane & 3), r, tile, c);
  }
  /// The block position of the tile's operand value at position k along d of line g (d = 1, 2:
  /// x = 8 (tile & 1) + g; d = 0: y = g + 8r), for every N = 16 shape (MmaF16N16 too).
  KOKKOS_FORCEINLINE_FUNCTION static constexpr void position(int d, int g, int k, int r, int tile, int (&c)[3]) {
    const int x = 8 * (tile & 1) + g, outer = d == 0 ? tile : tile >> 1;
    c[0] = d == 0 ? k : x;
    c[1] = d == 0 ? g + 8 * r : d == 1 ? k : outer;
    c[2] = d == 2 ? k : outer;
  }
  /// Block position of lane's first result of row half r (0: c0, c1; 1: c2, c3) and, for d = 0,
  /// output half q (the second mma) of tile `tile` along d; the second result is at x + 1.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr void result_position(int d, int lane, int r, int q, int tile,
                                                                    int (&c)[3]) {
    const int g = lane >> 2, t = lane & 3;
    const int outer = d == 0 ? tile : tile >> 1;
    c[0] = d == 0 ? 2 * t + 8 * q : 8 * (tile & 1) + 2 * t;
    c[1] = d == 0 ? g + 8 * r : d == 1 ? g + 8 * r : outer;
    c[2] = d == 2 ? g + 8 * r : outer;
  }
};

/// XOR-swizzled layout of an 8 × 8 × 8 block of 4-byte values (float; a plane in 2D) for the FP16
/// tensor-core contraction (MmaF16N8): value (x, y, z) at 64 z + 8 (y ⊕ (z & 3)) + x.
/// A 4-byte access of a warp is conflict-free when its 32 offsets differ mod 32, an 8-byte one of
/// a half warp when its 16 offsets / 2 differ mod 16. The bank is 8 (y ⊕ z mod 4) + x: along z the
/// four lanes' planes z = t (or t + 4) land in four different rows of banks, which the plain
/// layout (bank 8 (y mod 4) + x) puts in one; x stays plain (pairs along x adjacent, 8-byte
/// loads and stores).
struct XorSwizzleF32N8 {
  static constexpr const char* name = "xor-swizzled";
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int at(int x, int y, int z) { return 64 * z + 8 * (y ^ (z & 3)) + x; }
};

/// The operand and result positions of the N = 8 FP16 tensor-core contraction of float blocks
/// (block_contraction_cuda.hpp), m16n8k8 or, with error correction, m16n8k16, lane = 4 g + t.
/// Lane holds two positions along d of the 1D contraction ("k-slots" i = 0, 1): k = 2t + i for
/// d = 0 (neighbours along x: one 8-byte load), k = t + 4 i for d = 1, 2 (the four lanes t of a
/// load in four different rows of banks); the matrix registers use the same k. Tiles and results
/// as MmaF64N8 (row g of the product: line g for d = 0, output g along d for d = 1, 2).
struct MmaF16N8 {
  static constexpr int N = 8;
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int tiles(int dim) { return dim == 2 ? 1 : 8; }
  /// Position along d of lane's k-slot i.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int k_of(int d, int lane, int i) {
    const int t = lane & 3;
    return d == 0 ? 2 * t + i : t + 4 * i;
  }
  /// Index into the row-major 8 × 8 matrix of lane's matrix value for k-slot i: A_1D[g][k] (or
  /// A_1D[k][g] transposed), for d = 0 as operand B (B[k][n = g]), for d = 1, 2 as operand A.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int matrix_index(int d, int lane, int i, bool transposed) {
    const int g = lane >> 2, k = k_of(d, lane, i);
    return transposed ? k * N + g : g * N + k;
  }
  /// Block position (x, y, z) of lane's block value for k-slot i of tile `tile` along d.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr void data_position(int d, int lane, int i, int tile, int (&c)[3]) {
    const int g = lane >> 2, k = k_of(d, lane, i);
    c[0] = d == 0 ? k : g;
    c[1] = d == 0 ? g : d == 1 ? k : tile;
    c[2] = d == 2 ? k : tile;
  }
  /// Block position of lane's first result of tile `tile` along d (the second is at x + 1).
  KOKKOS_FORCEINLINE_FUNCTION static constexpr void result_position(int d, int lane, int tile, int (&c)[3]) {
    MmaF64N8::result_position(d, lane, tile, c);
  }
};

/// XOR-swizzled layout of a 16 × 16 × 16 block of 4-byte values (float; a plane in 2D) for the FP16
/// m16n8k16 contraction of N = 16 (MmaF16N16). Two rows y = 2s, 2s + 1 make a 32-value segment,
/// one row of the 32 banks: value (x, y, z) at 256 z + 32 s + ((16 (y & 1) + x) ⊕ (8 f3 + 16 f4)),
/// f3 = (y₁ ⊕ z₁), f4 = (y₂ ⊕ z₂ ⊕ z₀) (bit i of a coordinate: ·ᵢ). Within a segment the flip is
/// constant, so the layout is a permutation, and it keeps bit 0 of x (pairs along x adjacent,
/// 8-byte loads and stores). The lanes of an access spread over g (bits 0–2 of the bank, or, for
/// 8-byte accesses, over y₀ and y₁ resp. z₀ and z₁) and over t (the position along d, 2t + i,
/// in y₁y₂ or z₁z₂): f3, f4 send those two bits of t, and the bits of g that the plain layout
/// leaves out of the bank, to bank bits 3 and 4. The host test counts every access conflict-free.
struct XorSwizzleF32N16 {
  static constexpr const char* name = "xor-swizzled";
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int at(int x, int y, int z) {
    return 256 * z + 32 * (y >> 1) +
           ((16 * (y & 1) + x) ^ (8 * (((y >> 1) ^ (z >> 1)) & 1) + 16 * (((y >> 2) ^ (z >> 2) ^ z) & 1)));
  }
};

/// The operand and result positions of the N = 16 FP16 m16n8k16 contraction of float blocks
/// (block_contraction_cuda.hpp), lane = 4 g + t. A lane's four values of a 16-long fragment
/// column or row sit at k = 2t + i₀ + 8 i₁ (i = 0..3; pairs i = 0, 1 and 2, 3 are one FP16x2
/// register, the lower k in the low half), the m16n8k16 .f16 fragments of the PTX ISA:
///  - d = 1, 2: a tile is 8 lines (x = 8 h + g) of one plane (d = 1: z) or row (d = 2: y); the 1D
///    matrix is operand A (four registers: rows g + 8 (r & 1), columns 2t + 8 (r >> 1) and + 1),
///    the tile operand B (b[j]: positions 2t + 8j and + 1 along d of line g);
///  - d = 0: a tile is 16 lines (y = g + 8r) of one plane z, operand A (a[2j + r]: x = 2t + 8j
///    and + 1, one 8-byte load); the matrix is operand B, two mma per tile (output half q:
///    b = {A-register q, A-register 2 + q} of the d = 1, 2 case).
/// Tiles and results as MmaF64N16.
struct MmaF16N16 {
  static constexpr int N = 16;
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int tiles(int dim, int d) { return MmaF64N16::tiles(dim, d); }
  /// Position along the contraction of lane's value i (0..3).
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int k_of(int lane, int i) { return 2 * (lane & 3) + (i & 1) + 8 * (i >> 1); }
  /// Index into the row-major 16 × 16 matrix of the low (h = 0) or high (h = 1) half of lane's
  /// matrix register r (0..3): A_1D[g + 8 (r & 1)][2t + 8 (r >> 1) + h], transposed swapped.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int matrix_index(int lane, int r, int h, bool transposed) {
    const int row = (lane >> 2) + 8 * (r & 1), col = k_of(lane, 2 * (r >> 1) + h);
    return transposed ? col * N + row : row * N + col;
  }
  /// Block position of lane's value i of tile `tile` along d; for d = 0 of row half r (line
  /// y = g + 8r), for d = 1, 2 r is unused.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr void data_position(int d, int lane, int i, int r, int tile,
                                                                  int (&c)[3]) {
    MmaF64N16::position(d, lane >> 2, k_of(lane, i), r, tile, c);
  }
  KOKKOS_FORCEINLINE_FUNCTION static constexpr void result_position(int d, int lane, int r, int q, int tile,
                                                                    int (&c)[3]) {
    MmaF64N16::result_position(d, lane, r, q, tile, c);
  }
};

}  // namespace tensormg::cuda_mma
