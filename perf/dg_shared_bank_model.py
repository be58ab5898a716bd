#!/usr/bin/env python3
"""Shared-memory wavefronts of the 3D DG vertex-patch kernel (smoothers/dg_vertex_patch_kernels.hpp)
per scratch layout: a model, not a measurement (ncu: perf/results/h100-2026-11-24-dg-smoother-v2/call2).

It replays the scratch addresses of the kernel's line stages (one thread per patch line: x-lines,
all y- and z-lines of the residual, the y- and z-lines restricted to the m = 2k eigen coordinates
of the Dirichlet solve) for value (X, Y, Z) at X + row*Y + plane*Z, and counts wavefronts as
perf/shared_bank_model.py does: 16 threads per wavefront for 8-byte words (32 for 4-byte), one
more per extra distinct address on the busiest bank. Printed: per degree, each stage's wavefronts
over the ideal for plain rows (row = N), padded rows (row = N + 1) and the best (row, plane) of a
small search; then a weighted total (x-lines 7, all y 4, all z 3, restricted y 4, restricted z 4
passes per patch).

Usage: python3 perf/dg_shared_bank_model.py [8|4]   (word size in bytes, default 8)
"""
def wavefronts(addrs_per_thread, word):  # addrs_per_thread: list over threads of list over e
    group = 16 if word == 8 else 32
    banks_n = 16 if word == 8 else 32
    total = 0
    T = len(addrs_per_thread)
    for team0 in range(0, T, 128):
        for g in range(team0, min(team0+128, T), group):
            th = addrs_per_thread[g:min(g+group, T, team0+128)]
            for e in range(len(th[0])):
                b = {}
                for t in th:
                    a = t[e]; b.setdefault(a % banks_n, set()).add(a)
                total += max(len(v) for v in b.values())
    return total
def ideal(addrs, word):
    group = 16 if word == 8 else 32
    T=len(addrs); 
    tot=0
    for team0 in range(0,T,128):
        n=min(128,T-team0); tot += -(-n//group)*len(addrs[0])
    return tot
def stages(N, m, row, plane, dim=3):
    A = lambda X,Y,Z: X + row*Y + plane*Z
    S = []
    if dim == 3:
        S.append([[A(o, l % N, l // N) for o in range(N)] for l in range(N*N)])      # x lines
        S.append([[A(l % N, o, l // N) for o in range(N)] for l in range(N*N)])      # y lines all
        S.append([[A(l % N, l // N, o) for o in range(N)] for l in range(N*N)])      # z lines all
        S.append([[A(l % m, o, l // m) for o in range(N)] for l in range(m*N)])      # y restricted
        S.append([[A(l % m, l // m, o) for o in range(N)] for l in range(m*m)])      # z restricted
    else:
        S.append([[A(o, l, 0) for o in range(N)] for l in range(N)])
        S.append([[A(l, o, 0) for o in range(N)] for l in range(N)])
        S.append([[A(l, o, 0) for o in range(N)] for l in range(m)])
    return S
import sys
word = int(sys.argv[1]) if len(sys.argv)>1 else 8
for k in range(1, 9):
    N = 2*(k+1); m = 2*k
    def cost(row, plane):
        st = stages(N, m, row, plane)
        return [wavefronts(s, word) / ideal(s, word) for s in st]
    plain = cost(N, N*N)
    pad1 = cost(N+1, (N+1)*N)
    best = None
    for row in range(N, N+4):
        for plane in range(row*N, row*N+17):
            c = cost(row, plane); tot = sum(c)
            extra = (row*N*N + (plane-row*N)*N)
            if best is None or (tot, plane*N) < (best[0], best[3]*N): best = (tot, row, plane, plane, c)
    print(f"k={k} N={N} plain {['%.2f'%x for x in plain]} pad1 {['%.2f'%x for x in pad1]} best row={best[1]} plane={best[2]} (+{best[2]*N-N**3} words) {['%.2f'%x for x in best[4]]}")
print("weighted totals (x7, yall4, zall3, yr4, zr4) relative to ideal")
W=[7,4,3,4,4]
for k in range(1,9):
    N=2*(k+1); m=2*k
    def tot(row, plane):
        st=stages(N,m,row,plane)
        w=sum(Wi*wavefronts(s,word) for Wi,s in zip(W,st)); i=sum(Wi*ideal(s,word) for Wi,s in zip(W,st)); return w/i
    best=min(((tot(r,p),r,p) for r in range(N,N+4) for p in range(r*N, r*N+17)))
    print(k, 'plain %.2f pad1 %.2f best %.2f row %d plane %d'%(tot(N,N*N), tot(N+1,(N+1)*N), *best))
