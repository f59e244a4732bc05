"""The README's Python example and python/examples run as written."""
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_readme_python_example():
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "README.md has no python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def run_example(name, *args):
    env = dict(os.environ)
    return subprocess.run([sys.executable, str(ROOT / "python" / "examples" / name), *args],
                          capture_output=True, text=True, env=env, check=True).stdout


def test_random_playouts_example():
    out = run_example("random_playouts.py", "go", "20")
    assert "20 random games from Python" in out and "20 random games in C++" in out


def test_engine_vs_bot_example():
    out = run_example("engine_vs_bot.py", "2", "20")
    assert "engine: " in out and " of 2\n" in out
    assert out.strip().splitlines()[-1].startswith("runner: engine ")


def test_policy_training_example():
    out = run_example("policy_training.py", "8", "2")
    assert "self-play games; held-out top-1 agreement" in out
