# ptxas -v (--resource-usage) of a DG patch unit: registers and spill bytes per DG patch kernel.
import re, subprocess, sys
rows = []; cur = None; spill = None
for line in open(sys.argv[1]):
    m = re.search(r'Function properties for (\S+)', line)
    if m: cur = m.group(1); continue
    m = re.search(r'(\d+) bytes spill stores, (\d+) bytes spill loads', line)
    if m and cur: spill = (int(m.group(1)), int(m.group(2))); continue
    m = re.search(r'Used (\d+) registers', line)
    if m and cur:
        dem = subprocess.run(['c++filt', cur], capture_output=True, text=True).stdout.strip()
        if 'DgPatch' in dem:
            k = re.search(r'DgPatchKernel<(\d), (\d+), (\w+)', dem)
            b = re.search(r'LaunchBounds<(\d+)u, (\d+)u>', dem)
            kind = 'blocks' if 'DgPatchBlockKernel' in dem else 'lines'
            fast = 'DgPatchFastKernel' in dem or re.search(r'DgPatchBlockKernel<.*, true>', dem) is not None
            mma = 'mma' if 'true, ' in dem and kind == 'blocks' else ''
            rows.append((int(k.group(1)), int(k.group(2)) - 1, k.group(3), kind, 'fast' if fast else 'generic', int(m.group(1)), spill, b.groups() if b else None, dem))
        cur = None
for r in sorted(rows, key=lambda r: r[:5]):
    if r[3] == 'lines':
        print(f'{r[0]}D k={r[1]} {r[2]:6s} {r[3]} {r[4]:7s} registers {r[5]:3d} spill st/ld {r[6][0]}/{r[6][1]} B  bounds {r[7]}')
