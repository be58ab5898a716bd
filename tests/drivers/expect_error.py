#!/usr/bin/env python3
"""Runs a command that must fail cleanly: exit code == expected (not a crash), the message printed
exactly once, and no output file left behind.
usage: expect_error.py <exit code> <message fragment> <file that must not exist or -> -- command..."""
import os
import subprocess
import sys

code, fragment, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
cmd = sys.argv[sys.argv.index("--") + 1:]
p = subprocess.run(cmd, capture_output=True, text=True)
out = p.stdout + p.stderr
ok = True
if p.returncode != code:
    print(f"exit code {p.returncode}, expected {code}")
    ok = False
if out.count(fragment) != 1:
    print(f"message fragment {fragment!r} appears {out.count(fragment)} times, expected once")
    ok = False
if path != "-" and (os.path.exists(path) or os.path.exists(path + ".tmp")):
    print(f"{path} exists after a failed run")
    ok = False
print(out)
sys.exit(0 if ok else 1)
