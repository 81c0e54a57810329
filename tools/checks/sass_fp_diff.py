#!/usr/bin/env python3
"""Compares the floating-point instructions of CUDA kernels in two objects (or SASS dumps).

A kernel refactored without touching its arithmetic (a body moved into a function, a loop over
tiles) gives the same bits when every kernel keeps the same multiset of floating-point operations
(FFMA, FMUL, FADD, DFMA, DMUL, DADD, MUFU, min/max, compares, selects, shuffles) with the same
modifiers and constants; registers, scheduling order and .reuse flags are ignored. Used to check
that moving sopStepKernel's body into sopStepTile changed no operation.

usage: tools/checks/sass_fp_diff.py OLD.o|OLD.sass NEW.o|NEW.sass [NAME_SUBSTRING]
Needs cuobjdump (and nvdisasm) on PATH for .o files. Exit status 1 when a kernel differs.
"""
import re
import subprocess
import sys
from collections import Counter

FP = re.compile(r'^(?:@!?U?P\w+\s+)?(FFMA|FMUL|FADD|DFMA|DMUL|DADD|MUFU|FMNMX|DMNMX|FSEL|FSETP|'
                r'DSETP|SHFL)\S*')


def sass(path):
    if path.endswith('.sass'):
        return open(path).read()
    return subprocess.run(['cuobjdump', '-sass', path], check=True, capture_output=True,
                          text=True).stdout


def kernels(text):
    out = {}
    for block in re.split(r'\n\s*Function : ', text)[1:]:
        name = block.split('\n')[0].strip()
        ops = Counter()
        for line in block.split('\n'):
            m = re.match(r'\s*/\*[0-9a-f]+\*/\s+(.*?);', line)
            if not m or not FP.match(m.group(1).strip()):
                continue
            op = re.sub(r'^@!?U?P\w+\s+', '', m.group(1).strip()).replace('.reuse', '')
            op = re.sub(r'\bU?R\d+\b', 'R', op)
            ops[re.sub(r'\bU?P\d+\b', 'P', op)] += 1
        out[name] = ops
    return out


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().split('\n\n')[2], file=sys.stderr)
        return 2
    old, new = kernels(sass(sys.argv[1])), kernels(sass(sys.argv[2]))
    pattern = sys.argv[3] if len(sys.argv) == 4 else ''
    status = 0
    for name in sorted(old):
        if pattern not in name:
            continue
        if name not in new:
            print(f'only in old: {name}')
            status = 1
            continue
        gone, added = old[name] - new[name], new[name] - old[name]
        if gone or added:
            status = 1
            print(f'differs: {name}\n  old only: {dict(gone)}\n  new only: {dict(added)}')
        else:
            print(f'same: {name}')
    return status


if __name__ == '__main__':
    sys.exit(main())
