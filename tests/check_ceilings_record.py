#!/usr/bin/env python3
"""Checks a tensormg-ceilings record: provenance present, every measured ceiling positive."""
import json
import sys

record = json.load(open(sys.argv[1]))
assert record["kind"] == "tensormg-ceilings", record.get("kind")
prov = record["provenance"]
for key in ("git_hash", "kokkos", "backend", "device", "date_utc", "command_line"):
    assert prov.get(key), f"provenance.{key} missing"
c = record["ceilings"]
for key in ("dram_copy_GBps", "fp64_fma_GFLOPs", "fp32_fma_GFLOPs"):
    assert isinstance(c.get(key), (int, float)) and c[key] > 0, f"{key} = {c.get(key)}"
if prov["backend"] == "Cuda":
    for key in ("shared_load_GBps", "mma_f64.m8n8k4_GFLOPs", "mma_f16.m16n8k16.f32acc_GFLOPs"):
        assert isinstance(c.get(key), (int, float)) and c[key] > 0, f"{key} = {c.get(key)}"
print("ceilings record complete:", ", ".join(f"{k}={v:.4g}" for k, v in c.items() if isinstance(v, (int, float))))
