#!/usr/bin/env python3
"""SIGKILL at random moments of a run that replaces an existing result (issue 19): afterwards the
final names hold either the old or the new complete pair, never a partial HDF5 file and never a
sidecar without its data file or describing other data. Stray temporaries (.<name>.tensormg-*) are
the only trace a kill may leave; a complete run leaves none.
usage: kill_during_write.py <h5_summary helper> <folder> -- <launcher and tensormg-poisson...>"""
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

summary = sys.argv[1]  # tests/drivers/h5_summary.cpp: reads the file with the HDF5 library
folder = sys.argv[2]
program = sys.argv[sys.argv.index("--") + 1:]
shutil.rmtree(folder, ignore_errors=True)
os.makedirs(folder)
out = os.path.join(folder, "result.h5")
OLD = ["--dim", "2", "-k", "2", "-r", "3"]                      # 13 x 13 nodes
NEW = ["--dim", "2", "-k", "1", "-r", "10", "--rtol", "0.5"]    # 1025 x 1025 nodes, 8 MB


def start(args):
    return subprocess.Popen(program + args + ["--output", out, "--overwrite"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def wait_for_write(p):
    """Polls until a temporary appears (the write began); returns its time, or None if p ended."""
    while p.poll() is None:
        if strays():
            return time.time()
        time.sleep(0.0002)
    return None


def wait_for_renames(p):
    """Polls until the temporaries are gone again (renamed: the write ended); returns that time."""
    while strays() and p.poll() is None:
        time.sleep(0.0002)
    return time.time()


def run(args):
    return start(args).wait()


def state():
    """The shape of the complete pair at the final names; raises if the names are inconsistent."""
    assert os.path.exists(out), "the data file is gone"
    r = subprocess.run([summary, out], capture_output=True, text=True)
    assert r.returncode == 0, "the data file is partial or unreadable"
    lines = dict(line.split(" ", 1) for line in r.stdout.splitlines())
    shape = tuple(int(v) for v in lines["solution"].split())
    mesh = [int(v) for v in lines["mesh"].split()]
    assert mesh[:2] == [shape[1], shape[0]], (mesh, shape)
    if os.path.exists(out + ".xdmf"):
        text = open(out + ".xdmf").read()
        dims = re.search(r'Topology TopologyType="2DRectMesh" Dimensions="(\d+) (\d+)"', text)
        assert dims and (int(dims.group(1)), int(dims.group(2))) == shape, "the sidecar describes other data"
    return shape


def strays():
    """Temporaries of the result (the writability probe at start-up, '.probe.', is not one)."""
    return [n for n in os.listdir(folder) if ".tensormg-" in n and ".probe." not in n]


assert run(OLD) == 0
old_shape = state()
# Calibration: how long the write takes, from the first temporary to the renames (not to the end
# of the program: tearing down MPI and a GPU's context can take longer than the write).
p = start(NEW)
began = wait_for_write(p)
assert began is not None, "no temporary was seen during a complete run"
window = wait_for_renames(p) - began
assert p.wait() == 0, "the complete run failed"
new_shape = state()
assert not strays(), f"a complete run left {strays()}"
random.seed(int(os.environ.get("TENSORMG_KILL_SEED", "1")))
kills, in_write, seen = 0, 0, set()
for kills in range(1, 17):
    assert run(OLD) == 0
    p = start(NEW)
    # Most kills inside the write (from its first temporary to the renames); every fourth after
    # the renames, while the program ends (the new pair must then be complete).
    if wait_for_write(p) is not None:
        if kills % 4 == 0:
            wait_for_renames(p)
        time.sleep(random.uniform(0, window))
    p.send_signal(signal.SIGKILL) if p.poll() is None else None
    p.wait()
    left = strays()
    in_write += bool(left)  # a temporary exists only while the result is being written
    for name in left:
        os.remove(os.path.join(folder, name))
    shape = state()
    assert shape in (old_shape, new_shape), shape
    seen.add("new" if shape == new_shape else "old")
print(f"{kills} kills, write window {window * 1000:.1f} ms, {in_write} during the write; final states seen: {sorted(seen)}")
if in_write < 3 or seen != {"old", "new"}:
    sys.exit("too few kills landed during the write: the test did not test enough")
shutil.rmtree(folder)
