"""What the tests of tools/*.py scripts share: a check that prints and counts, running the tool
as a user does (its $YARDZEE the binary under test), and the exit."""
import subprocess
import sys

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run_tool(tool, yardzee, *args):
    return subprocess.run([sys.executable, str(tool), *map(str, args)], capture_output=True,
                          text=True, env={"YARDZEE": yardzee, "PATH": "/usr/bin:/bin"})


def finish():
    print(f"{len(failures)} checks failed" if failures else "all checks passed")
    sys.exit(1 if failures else 0)
