#!/usr/bin/env python3
"""Writes the seed corpora fuzz/corpus/<target>/ from tests/data and small hand-made inputs.

Usage: fuzz/make_seeds.py [SOURCE_DIR]   (the seeds are committed; rerun after a format change)
Targets whose first byte is a selector (perm.allow, rigid bodies, PATHSAMPLE files) get it here."""
import pathlib
import re
import shutil
import struct
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
data = root / "tests" / "data"
corpus = root / "fuzz" / "corpus"


def seed(target, name, content):
    folder = corpus / target
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        content = content.encode()
    (folder / name).write_bytes(content)


def text(relative):
    return (data / relative).read_bytes()


# The network.h5 seeds come from the built programs; kept when they are not built.
network_target = "fuzz_network_file"
kept_networks = {p.name: p.read_bytes() for p in (corpus / network_target).glob("*")} \
    if (corpus / network_target).exists() else {}

if corpus.exists():
    shutil.rmtree(corpus)

# ---- AMBER ----
seed("fuzz_prmtop", "ash.parm7", text("gb/ash/ash.parm7"))
seed("fuzz_inpcrd", "ash.rst7", text("gb/ash/ash.rst7"))
seed("fuzz_inpcrd", "three_atoms_velocities_box.rst7",
     "three atoms\n    3  0.1000000E+02\n"
     "   1.0000000   2.0000000   3.0000000  -4.0000000   5.0000000  -6.5000000\n"
     "  10.1234567-100.1234567   0.0000000\n"
     "   0.1000000   0.2000000   0.3000000   0.4000000   0.5000000   0.6000000\n"
     "   0.7000000   0.8000000   0.9000000\n"
     "  30.0000000  31.0000000  32.0000000  90.0000000  91.0000000  92.0000000\n")
seed("fuzz_inpcrd", "free_format.rst7", "free\n3\n1 2 3 4 5 6\n7 8 9\n")

# ---- SOP PDB: 24 C-alpha records of titin I27 and an all-atom residue pair with a TER ----
ca = [l for l in text("sop/1TIT.pdb").decode().splitlines(True) if l.startswith("ATOM")]
seed("fuzz_sop_pdb", "1tit_ca_24.pdb",
     "".join([l for l in ca if l[12:16] == " CA "][:24]) + "TER\nEND\n")
seed("fuzz_sop_pdb", "1tit_all_atom_3.pdb",
     "".join([l for l in ca if 1 <= int(l[22:26]) <= 3]) + "TER\n" +
     "".join([l for l in ca if 4 <= int(l[22:26]) <= 6]) + "ENDMDL\n")

# ---- coordinates ----
seed("fuzz_coordinates", "lj38.coords", text("lj38/gmin/coords"))
seed("fuzz_coordinates", "three.xyz", "3\ncomment\nLA 0 0 0\nLA 1.0D0 0 0\nLA 0 1.1e0 -0.5\n\n")

# ---- keyword files ----
seed("fuzz_gmin_data", "lj38_data", text("lj38/gmin/data"))
seed("fuzz_gmin_data", "more_keywords",
     "ACCEPTRATIO 0.5\nCHANGEACCEPT 50\nDGUESS 0.1\nMAXBFGS 0.4\nUPDATES 4\nRADIUS 2.5\n"
     "TARGET -173.928427\nRANSEED 7\nNOTE anything\nCOMMENT more\nSTOP\nIGNORED AFTER STOP\n")
seed("fuzz_odata", "lj38_odata", text("lj38/optim/odata"))
seed("fuzz_odata", "points", "BFGSMIN 1.0D-6\nPOINTS\nLA 0.0 0.0 0.0\nLA 1.1 0.0 0.0\n"
     "LA 0.0 1.1 0.0\n")

# ---- perm.allow and rigid bodies: the first byte is the atom count - 1 (mod 64) ----
seed("fuzz_perm_allow", "two_groups", bytes([15]) + b"2\n2 0\n12 13\n2 3\n5 9  6 10  7 11  8 12\n")
seed("fuzz_perm_allow", "commas", bytes([7]) + b"1\n3,1\n1,2,3\n4,5,6\n")
seed("fuzz_rigid_bodies", "two_bodies", bytes([9]) + b"# bodies\nGROUP 3\n1\n2\n3\nGROUP 4\n4 5 6 7\n")

# ---- gmin output read back ----
seed("fuzz_lowest", "lj38_lowest", text("lj38/gmin/lowest"))

# ---- PATHSAMPLE and OPTIM files: first byte = reader (mod 4) + 4 x (atoms - 1) ----
seed("fuzz_pathsample", "min.data", bytes([0]) + text("lj38/pathsample/min.data"))
seed("fuzz_pathsample", "ts.data", bytes([1]) +
     b"    -173.252000000000000      135.000000000000000         1         1         2"
     b"       10.1000000000       10.2000000000       10.3000000000\n"
     b"    -172.000000000000000      130.000000000000000         2         2         1\n")
two_atom_point = ("  -1.000000000000000\n     1 D*h\n"
                  "  1.0 0.0 0.0\n  0.0 0.0 0.0\n"
                  "  0.0 0.0 0.0\n  1.1 0.0 0.0\n")
seed("fuzz_pathsample", "path.info", bytes([2 + 4 * 1]) + (two_atom_point * 3).encode())
seed("fuzz_pathsample", "points", bytes([3 + 4 * 1]) +
     struct.pack("<12d", *[0.0, 0.0, 0.0, 1.1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.2, 0.0]))

# ---- DCD: the layout DcdWriter writes (2 atoms, 2 frames) ----
def record(payload):
    return struct.pack("<I", len(payload)) + payload + struct.pack("<I", len(payload))
header = b"CORD" + struct.pack("<9i", 2, 0, 1, 2, 0, 0, 0, 0, 0) + struct.pack("<f", 0.05) + \
    struct.pack("<10i", 0, 0, 0, 0, 0, 0, 0, 0, 0, 24)
dcd = record(header) + record(struct.pack("<i", 1) + b"sop".ljust(80)) + record(struct.pack("<i", 2))
for frame in range(2):
    for c in range(3):
        dcd += record(struct.pack("<2f", 0.5 * frame + c, 1.5 + c))
seed("fuzz_dcd", "two_frames.dcd", dcd)

# ---- config files (key = value with the long option names) ----
seed("fuzz_gmin_config", "lj", "# gmin\nlj = 13\nsteps = 10\ntemperature = 1.0D0\nstep-size = 0.4\n"
     "centre = true\nsave = 3\n")
seed("fuzz_optim_config", "lj", "# optim\nlj = 7\nmax-cycles = 3\nts-rms = 1.0D-4\nseed = 2\n")
seed("fuzz_sop_config", "pull", "# sop\nsteps = 100\ndt = 0.05\nreplicas = 2\nkt = 0.6\n")

# ---- the checkpoint: the layout of formatCheckpoint (landscape/formats/CheckpointFile.cpp) ----
# The random line is std::mt19937_64's text form for seed 5489: 312 words and the position.
mask = (1 << 64) - 1
state = [5489]
for i in range(1, 312):
    state.append((6364136223846793005 * (state[-1] ^ (state[-1] >> 62)) + i) & mask)
checkpoint = ("landscape-basin-hopping-checkpoint 1\nfingerprint 2\ntemperature 1\nseed 42\n"
              "steps 10\nquench 2\nfunction-calls 40\nrestarts 0\ntarget 0 -1 -1\n"
              "step-size 0x1.999999999999ap-2\naccepted-in-window 1\n"
              "random " + " ".join(map(str, state)) + " 312\n"
              "markov -0x1.8p+0 6 0x0p+0 0x0p+0 0x0p+0 0x1p+0 0x0p+0 0x0p+0\n"
              "chain-best -0x1.8p+0 1 6 0x0p+0 0x0p+0 0x0p+0 0x1p+0 0x0p+0 0x0p+0\n"
              "chain-previous-best inf 0\ntaboo 1 1\n"
              "taboo-structure -0x1p+0 6 0x0p+0 0x0p+0 0x0p+0 0x1p+0 0x0p+0 0x0p+0\n"
              "lowest 1\nminimum -0x1.8p+0 1 20 6 0x0p+0 0x0p+0 0x0p+0 0x1p+0 0x0p+0 0x0p+0\nend\n")
seed("fuzz_checkpoint", "two_atoms", checkpoint)

# ---- checkpoints written by real optim and sop runs (tests/data/checkpoints/README.md) ----
for name in ("lj38_connect_cycle1.checkpoint", "lj38_connect_cycle5.checkpoint"):
    seed("fuzz_connect_checkpoint", name, text("checkpoints/" + name))
seed("fuzz_ended_runs", "lj38_grow.ended-runs", text("checkpoints/lj38_grow.ended-runs"))
for name in ("titin_pull_philox.sop.checkpoint", "titin_indent_ran2.sop.checkpoint"):
    seed("fuzz_sop_checkpoint", name, text("checkpoints/" + name))
# A CUDA run's checkpoint adds the Verlet list's reference: the pull seed with one, replica 0's
# list built where it stands now, and a rebuild due.
pull = text("checkpoints/titin_pull_philox.sop.checkpoint").decode()
positions = re.search(r"^positions 0 (.*)$", pull, re.M).group(1)
seed("fuzz_sop_checkpoint", "titin_pull_list_reference.sop.checkpoint",
     pull.replace("list-reference 0\n",
                  "list-reference 1\nrebuild-due 1\nlist 0 " + positions + "\n"))

# ---- the database target is structure-aware: its seeds are arbitrary bytes ----
seed("fuzz_database", "zeros", bytes(64))
seed("fuzz_database", "ones", bytes([1] * 64))
# ---- network.h5 as the programs write it (fuzz_network_file: damaged bytes of real files) ----
# The tests' databases: gmin's LJ7 minima.h5, optim's LJ7 network.h5, that minima.h5 extended by
# optim --database, the LJ38 PATHSAMPLE example imported, and a pathsample grow output (/growth).
# Needs gmin, optim and pathsample built in $LANDSCAPE_BUILD (default: build/).
import os
import subprocess
import tempfile

build = pathlib.Path(os.environ.get("LANDSCAPE_BUILD", root / "build"))
if all((build / p).exists() for p in ("gmin", "optim", "pathsample")):
    with tempfile.TemporaryDirectory() as work:
        def program(*args):
            subprocess.run([str(build / args[0]), *args[1:]], cwd=work, check=True,
                           stdout=subprocess.DEVNULL)
        program("gmin", "--lj", "7", "--steps", "30", "--quiet", "--output", "g")
        seed(network_target, "gmin_lj7_minima.h5", (pathlib.Path(work) / "g/minima.h5").read_bytes())
        program("optim", "--output", "o", "--quiet")
        seed(network_target, "optim_lj7_network.h5", (pathlib.Path(work) / "o/network.h5").read_bytes())
        program("optim", "--database", "g/minima.h5", "--output", "o2", "--quiet")
        seed(network_target, "gmin_lj7_minima_extended_by_optim.h5",
             (pathlib.Path(work) / "g/minima.h5").read_bytes())
        program("pathsample", "import", "--directory", str(data / "lj38/pathsample"), "--database",
                "lj38.h5")
        seed(network_target, "lj38_imported.h5", (pathlib.Path(work) / "lj38.h5").read_bytes())
        program("pathsample", "grow", "--database", "o/network.h5", "--output", "gr", "--cycles", "1",
                "--temperature", "0.1", "--pair-selection", "dijkstra")
        seed(network_target, "grow_lj7_network.h5", (pathlib.Path(work) / "gr/network.h5").read_bytes())
else:
    for name, content in kept_networks.items():
        seed(network_target, name, content)

# ---- dictionaries (libFuzzer -dict): the words the readers look for ----
import re
dictionaries = root / "fuzz" / "dict"
if dictionaries.exists():
    shutil.rmtree(dictionaries)
dictionaries.mkdir()


def dictionary(target, words):
    unique = sorted(set(w for w in words if w))
    lines = ["# written by fuzz/make_seeds.py"] + ['"%s"' % w.replace("\\", "\\\\").replace('"', '\\"')
                                                   for w in unique]
    (dictionaries / (target + ".dict")).write_text("\n".join(lines) + "\n")


def table_keywords(doc):
    return re.findall(r"^\| `([A-Z0-9_]+)`", (root / "docs" / doc).read_text(), re.M)


def option_names(doc):
    return re.findall(r"^\| `--([a-z0-9-]+)", (root / "docs" / doc).read_text(), re.M)


dictionary("fuzz_gmin_data", table_keywords("gmin-keywords.md") + ["T", "F", ".TRUE.", "1.0D-3", "!"])
dictionary("fuzz_odata", table_keywords("optim-keywords.md") + ["POINTS", "LA", "1.0D-3", "!"])
flags = re.findall(r"^%FLAG (\S+)", text("gb/ash/ash.parm7").decode(), re.M)
dictionary("fuzz_prmtop", ["%FLAG " + f for f in flags] +
           ["%FORMAT(10I8)", "%FORMAT(5E16.8)", "%FORMAT(20a4)", "%FORMAT(1a80)", "%VERSION",
            "%COMMENT", "%FLAG CTITLE", "%FLAG IPOL", "%FLAG RADII", "%FLAG SCREEN"])
dictionary("fuzz_sop_pdb", ["ATOM  ", "HETATM", "TER", "ENDMDL", "END", " CA ", " N  ", "ALA", "GLY",
                            "   1.000", "-999.999", "nan", "inf"])
dictionary("fuzz_gmin_config", option_names("gmin-keywords.md") + ["=", "#", "true", "false"])
dictionary("fuzz_optim_config", option_names("optim-keywords.md") + ["=", "#", "true", "false"])
dictionary("fuzz_checkpoint", ["landscape-basin-hopping-checkpoint", "fingerprint", "steps", "quench",
                               "function-calls", "restarts", "target", "step-size",
                               "accepted-in-window", "random", "markov", "chain-best",
                               "chain-previous-best", "taboo", "taboo-structure", "lowest",
                               "minimum", "end", "inf", "nan", "0x1p+0"])
dictionary("fuzz_lowest", ["Energy of minimum", "first found at step", "after", "function calls",
                           "0.1000000000+101", "LA"])
dictionary("fuzz_rigid_bodies", ["GROUP", "#"])
dictionary("fuzz_connect_checkpoint", ["landscape-connect-checkpoint", "fingerprint", "option",
                                       "loaded-transition-states", "minima", "transition-states",
                                       "cycles", "dneb-runs", "transition-state-searches",
                                       "gradient-calls", "tries-size", "tries", "pair", "end"])
dictionary("fuzz_sop_checkpoint", ["landscape-sop-checkpoint", "fingerprint", "option",
                                   "input-digest", "beads", "replicas", "protocol", "none",
                                   "pulling", "indentation", "step", "random-step", "tips",
                                   "positions", "list-reference", "rebuild-due", "list", "rebuilds",
                                   "outputs", "output", "end", "0x1p+0", "nan", "inf", "1e308",
                                   "4294967295"])
print("seeds written to", corpus, "and dictionaries to", dictionaries)
