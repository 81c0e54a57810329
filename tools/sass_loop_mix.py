#!/usr/bin/env python3
"""Instruction mix of the loops of CUDA kernels (innermost first), from SASS.

For each kernel whose name contains NAME_SUBSTRING, every backward branch defines a loop (its
target to the branch); the script prints each loop's length and instruction counts by opcode, and
with --list the loop's instructions, so that the paths through a loop body can be counted (issue
17: the GB pair kernel's rotation loop, docs/benchmarks.md "Large sizes, step 3"). Static counts:
a loop with branches holds every path.

usage: tools/sass_loop_mix.py OBJECT.o|DUMP.sass NAME_SUBSTRING [--list]
Needs cuobjdump on PATH for .o files (pip package nvidia-cuda-cuobjdump works too).
"""
import re
import subprocess
import sys
from collections import Counter


def sass(path):
    if path.endswith('.sass'):
        return open(path).read()
    return subprocess.run(['cuobjdump', '-sass', path], check=True, capture_output=True,
                          text=True).stdout


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    text, want, listing = sass(sys.argv[1]), sys.argv[2], '--list' in sys.argv[3:]
    found = False
    for block in re.split(r'\n\s*Function : ', text)[1:]:
        name = block.split('\n')[0].strip()
        if want not in name:
            continue
        found = True
        ins = []
        for line in block.split('\n'):
            m = re.match(r'\s*/\*([0-9a-f]+)\*/\s+(.*?);', line)
            if m:
                ins.append((int(m.group(1), 16), m.group(2).strip()))
        index = {address: k for k, (address, _) in enumerate(ins)}
        loops = set()
        for k, (address, op) in enumerate(ins):
            target = re.search(r'BRA\s+(?:.*?)0x([0-9a-f]+)', op)
            if target and int(target.group(1), 16) <= address and int(target.group(1), 16) in index:
                loops.add((index[int(target.group(1), 16)], k))
        print(f'{name}: {len(ins)} instructions')
        for first, last in sorted(loops, key=lambda l: l[1] - l[0]):
            mix = Counter(re.sub(r'^@!?U?P\w+\s+', '', op).split()[0].split('.')[0]
                          for _, op in ins[first:last + 1])
            print(f'  loop {first}-{last}: {last - first + 1} instructions',
                  dict(sorted(mix.items(), key=lambda kv: -kv[1])))
            if listing:
                for k in range(first, last + 1):
                    print(f'    {k} {ins[k][1]}')
    if not found:
        sys.exit(f'no kernel name contains {want!r}')


if __name__ == '__main__':
    main()
