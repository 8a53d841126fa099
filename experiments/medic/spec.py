#!/usr/bin/env python3
"""spec.py: the MeDiC sweep with the paper's Rodinia programs: prints
medic.toml followed by a copy of each of its groups that runs the programs
below instead of the built-in workloads (same point name, policy and sets, and
ptx.ptxas_regs=1), each in {rodinia}/<program> as experiments/rodinia/build.sh
leaves it.
usage: spec.py MEDIC_TOML"""
import json
import sys
import tomllib

# The paper's Rodinia programs (its Table II: NN, BP, HS, SC, BFS) with inputs
# large enough that warps are typed (30 L2 reads per warp slot in a 100k-cycle
# epoch) and runs of a few seconds to a minute a point; inputs from
# experiments/rodinia/programs.sh.  Output files go to /dev/null: a sweep
# point's key hashes every argument that is a file, and an output file the
# first run leaves behind would change the key.
PROGRAMS = [
    ("nn", ["filelist512k", "-r", "5", "-lat", "30", "-lng", "90"]),
    ("backprop", ["65536"]),
    ("hotspot", ["512", "2", "2", "temp_512", "power_512", "/dev/null"]),
    # 2048 points of 128 dimensions (1 MiB, more than the 768 KiB L2 as the
    # paper's 65536 x 256 is); 2-4 centres keep it to about 200 launches
    ("streamcluster", ["2", "4", "128", "2048", "2048", "100", "none", "/dev/null", "1"]),
    ("bfs", ["graph64k.txt"]),
]


def toml_str(x):
    return json.dumps(x)  # a JSON string is a TOML basic string


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("usage: ")[1])
    with open(sys.argv[1], "rb") as f:
        text = f.read().decode()
    spec = tomllib.loads(text)
    print(text.rstrip("\n"))
    progs = ", ".join("{ name = %s, cmd = %s, dir = %s }" % (
        toml_str(n), "[" + ", ".join(toml_str(a) for a in ["./prog"] + args) + "]",
        toml_str("{rodinia}/" + n)) for n, args in PROGRAMS)
    for g in spec["group"]:
        print("\n[[group]]")
        print("name = %s" % toml_str(g["name"] + "-rodinia"))
        print("programs = [%s]" % progs)
        print("policies = [%s]" % ", ".join(
            "{ name = %s, spec = %s }" % (toml_str(p["name"]), toml_str(p["spec"]))
            for p in g["policies"]))
        # CTAs sized with ptxas's register counts, as GPGPU-Sim 3.x does (README)
        sets = g.get("sets", []) + ["ptx.ptxas_regs=1"]
        print("sets = [%s]" % ", ".join(toml_str(s) for s in sets))


if __name__ == "__main__":
    main()
