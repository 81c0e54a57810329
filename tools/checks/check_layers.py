#!/usr/bin/env python3
"""Checks that #include "folder/..." lines point one way: down the layer order of
docs/architecture.md (a file may include its own layer and the layers listed before it).

Usage: tools/checks/check_layers.py [SOURCE_DIR] [--counts]
Exits 1 and names every offending line; --counts prints the include counts between folders."""
import collections
import pathlib
import re
import sys

# Lowest first; keep in step with docs/architecture.md ("Layers").
LAYERS = [
    "landscape/core",
    "potentials",
    "landscape/geometry",
    "landscape/minimisation",
    "landscape/dynamics",
    "landscape/network",
    "landscape/paths",
    "landscape/search",
    "landscape/formats",
    "gpu",
    "backends",
    "src/common",  # what the programs share; never a program's folder
    "src",  # src/gmin, src/optim, src/pathsample, src/sop
    "python",
    "tools",
    "tests",
    "fuzz",
]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SUFFIXES = {".h", ".cpp", ".cu", ".cuh"}


def layer_of(path: str):
    """The layer a repository-relative path belongs to (longest matching prefix), or None."""
    best = None
    for layer in LAYERS:
        if path == layer or path.startswith(layer + "/"):
            if best is None or len(layer) > len(best):
                best = layer
    return best


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = pathlib.Path(args[0] if args else pathlib.Path(__file__).resolve().parents[2])
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    counts = collections.Counter()
    errors = []
    for file in sorted(root.rglob("*")):
        if file.suffix not in SUFFIXES or not file.is_file():
            continue
        relative = file.relative_to(root).as_posix()
        if relative.startswith(("build", ".")):
            continue
        source_layer = layer_of(relative)
        if source_layer is None:
            continue
        for number, line in enumerate(file.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target_layer = layer_of(match.group(1))
            if target_layer is None:
                if match.group(1).split("/")[0] in {"landscape"}:
                    errors.append(f"{relative}:{number}: {match.group(1)} is in no layer")
                continue
            counts[(source_layer, target_layer)] += 1
            if rank[target_layer] > rank[source_layer]:
                errors.append(f"{relative}:{number}: {source_layer} includes {match.group(1)} "
                              f"from the higher layer {target_layer}")
    if "--counts" in argv:
        for (source, target), n in sorted(counts.items(), key=lambda kv: (rank[kv[0][0]], rank[kv[0][1]])):
            print(f"{source:24} -> {target:24} {n}")
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print(f"check_layers: {len(errors)} include(s) against the layer order", file=sys.stderr)
        return 1
    print(f"check_layers: includes follow the layer order ({sum(counts.values())} checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
