# Per DG patch kernel entry in a PTX file: counts of shared, generic, global, local loads/stores.
import re, subprocess, sys
stats = {}; cur = None
for line in open(sys.argv[1]):
    m = re.match(r"\.entry (\S+)\(", line) or re.match(r"\.visible \.entry (\S+)\(", line)
    if m:
        cur = m.group(1); stats[cur] = dict(ld_shared=0, st_shared=0, ld_generic=0, st_generic=0, ld_global=0, st_global=0, ld_local=0, st_local=0); continue
    if cur is None: continue
    m = re.match(r'\s+(?:@%p\d+ )?(ld|st)\.(shared|global|local|param|const)?', line)
    if m:
        op, sp = m.group(1), m.group(2)
        if sp in (None,): stats[cur][op + '_generic'] += 1
        elif sp in ('shared', 'global', 'local'): stats[cur][op + '_' + sp] += 1
for name, s in stats.items():
    dem = subprocess.run(['c++filt', name], capture_output=True, text=True).stdout.strip()
    if 'DgPatch' not in dem: continue
    m = re.search(r'DgPatchKernel<(\d), (\d+), (\w+)', dem)
    fast = 'DgPatchFastKernel' in dem or re.search(r'DgPatchBlockKernel<.*, true>', dem) is not None
    blocks = 'DgPatchBlockKernel' in dem
    print(m.groups() if m else '?', 'blocks' if blocks else 'lines', 'fast' if fast else 'generic', s)
