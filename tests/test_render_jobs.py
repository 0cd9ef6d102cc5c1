#!/usr/bin/python3
"""tools/render_scenes.py renders a batch's scenes several at a time (--jobs) and must give the
folder it gives one at a time: every JPEG, mask, truth.csv and scenes.csv byte for byte, in the
seeds' order. Four small --world scenes with --masks, rendered with --jobs 1 and --jobs 3.

  tests/test_render_jobs.py   # exits 77 (skipped) without POV-Ray (tools/setup-render.sh)
"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

try:
    import cv2  # noqa: F401
    import numpy  # noqa: F401
except ImportError:
    print("skipped: python3-opencv or python3-numpy is not installed")
    sys.exit(77)
if shutil.which("povray") is None:
    print("skipped: povray is not installed (tools/setup-render.sh)")
    sys.exit(77)

RENDER = pathlib.Path(__file__).resolve().parent.parent / "tools" / "render_scenes.py"


def render(out, jobs):
    subprocess.run([sys.executable, str(RENDER), "--out", str(out), "--count", "4", "--seed",
                    "7100", "--world", "--long-side", "160", "--masks", "--prefix", "j_",
                    "--jobs", str(jobs)], check=True, stdout=subprocess.DEVNULL)
    return {path.name: path.read_bytes() for path in sorted(out.iterdir())}


def main():
    with tempfile.TemporaryDirectory() as tmp:
        alone = render(pathlib.Path(tmp) / "alone", 1)
        together = render(pathlib.Path(tmp) / "together", 3)
    pictures = [name for name in alone if name.endswith(".jpg")]
    assert len(pictures) == 4, sorted(alone)
    assert len([name for name in alone if name.endswith(".mask.png")]) == 4, sorted(alone)
    assert alone.keys() == together.keys(), (sorted(alone), sorted(together))
    differ = [name for name in alone if alone[name] != together[name]]
    assert not differ, f"--jobs 3 wrote other bytes in {differ}"
    scenes = alone["scenes.csv"].decode().splitlines()
    assert [line.split(",")[0] for line in scenes[1:]] == sorted(pictures), scenes
    print("render_jobs: 4 scenes, --jobs 1 and --jobs 3 byte-identical")


if __name__ == "__main__":
    main()
