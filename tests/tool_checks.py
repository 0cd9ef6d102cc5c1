"""What the tests of tools/*.py scripts share: a check that prints and counts, running the tool
as a user does (its $YARDZEE the binary under test), tools/train_reader.py imported or the test
skipped, and the exit."""
import importlib
import pathlib
import subprocess
import sys

TOOLS = pathlib.Path(__file__).resolve().parent.parent / "tools"

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run_tool(tool, yardzee, *args):
    return subprocess.run([sys.executable, str(tool), *map(str, args)], capture_output=True,
                          text=True, env={"YARDZEE": yardzee, "PATH": "/usr/bin:/bin"})


def train_reader(*needed):
    """tools/train_reader.py as a module; exits 77 (skipped) when python3-opencv, python3-numpy,
    python3-torch or one of `needed` is not installed (tools/setup.sh --train installs them)."""
    try:
        for name in ("cv2", "numpy", "torch", *needed):
            importlib.import_module(name)
    except ImportError as missing:
        print(f"skipped: {missing.name} is not installed")
        sys.exit(77)
    sys.path.insert(0, str(TOOLS))
    return importlib.import_module("train_reader")


def finish():
    print(f"{len(failures)} checks failed" if failures else "all checks passed")
    sys.exit(1 if failures else 0)
