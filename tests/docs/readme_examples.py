#!/usr/bin/env python3
"""Runs the README's examples and compares their output.

Every ```sh block line that starts with "$ build/release/kibitz" is a command; the lines after
it, up to the next command, a "#" comment, a command shown without "$ " or the block's end,
are its expected output. "..." alone on a line
matches any number of lines; inside a line it matches any text (timings, speeds). A command
whose expected output is empty is only run and must succeed. Commands that read
../shared (KIBITZ_SUITES) are skipped when it is absent. Usage: readme_examples.py KIBITZ README
"""
import os
import re
import shlex
import subprocess
import sys


def examples(text):
    out, in_block, current = [], False, None
    for line in text.splitlines():
        if line.startswith("```"):
            if in_block and current:
                out.append(current)
            in_block, current = line.strip() == "```sh", None
            continue
        if not in_block:
            continue
        if line.startswith("$ "):
            if current:
                out.append(current)
            current = [line[2:], []]
        elif current is not None and (re.match(r"# \S", line) or line.startswith("build/")):
            out.append(current)  # a comment or a command shown without output ends it
            current = None
        elif current is not None:
            if current[1] == [] and current[0].endswith("\\"):
                current[0] = current[0][:-1] + line.strip()  # a continued command
            else:
                current[1].append(line)
    return out


def line_regex(expected):
    parts = [re.escape(p) for p in expected.rstrip().split("...")]
    return re.compile("^" + ".*".join(parts) + "$")


def matches(expected, actual):
    # Backtracking over "..." lines, which match any run of lines.
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and bool(line_regex(expected[0]).match(actual[0].rstrip())) and matches(
        expected[1:], actual[1:])


def main():
    kibitz, readme = sys.argv[1], sys.argv[2]
    root = os.path.dirname(os.path.abspath(readme))
    suites = os.environ.get("KIBITZ_SUITES", os.path.join(root, "..", "shared", "data"))
    failed = passed = skipped = 0
    for command, expected in examples(open(readme, encoding="utf-8").read()):
        command = command.split("  #")[0].strip()
        if "../shared" in command and not os.path.isdir(suites):
            skipped += 1
            continue
        command = command.replace("../shared/data", suites)
        pipe = command.split("|")
        shell = command.replace("build/release/kibitz", shlex.quote(kibitz))
        try:
            r = subprocess.run(shell, shell=True, cwd=root, capture_output=True, text=True,
                               timeout=300)
        except subprocess.TimeoutExpired:
            print(f"FAIL (timeout): {command}")
            failed += 1
            continue
        actual = (r.stdout + (r.stderr if "2>&1" in command else "")).splitlines()
        expect = [l for l in expected]
        while expect and not expect[-1].strip():
            expect.pop()
        while actual and not actual[-1].strip():
            actual.pop()
        ok = (r.returncode == 0 or command.startswith("build/release/kibitz perft --depth 1 --fen")
              or len(pipe) > 1)
        if expected and "kibitz: error:" in "\n".join(expected):
            actual = r.stderr.splitlines()
            ok = True
        if ok and expect and not matches(expect, actual):
            ok = False
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL: {command}\n  status {r.returncode}\n  expected:")
            for l in expect:
                print(f"    | {l}")
            print("  got:")
            for l in actual[:40]:
                print(f"    | {l}")
    print(f"readme examples: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
