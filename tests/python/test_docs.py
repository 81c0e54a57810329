"""Runs every ```python example of docs/python.md, from a folder whose tests/ is the
repository's; examples marked '# needs a GPU' are skipped without a CUDA device."""
import os
import re
import subprocess
import sys

import pytest

import landscape
from conftest import SOURCE_DIR

EXAMPLES = re.findall(r"```python\n(.*?)```", (SOURCE_DIR / "docs/python.md").read_text(),
                      re.S)


def test_the_page_has_the_ten_examples():
    assert len(EXAMPLES) == 10


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_example_runs(number, tmp_path):
    code = EXAMPLES[number]
    if "# needs a GPU" in code and not landscape.cuda.available():
        pytest.skip("needs a CUDA device")
    (tmp_path / "tests").symlink_to(SOURCE_DIR / "tests")
    (tmp_path / "example.py").write_text(code)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(landscape.__file__)),
               MPLBACKEND="Agg")
    run = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip()
