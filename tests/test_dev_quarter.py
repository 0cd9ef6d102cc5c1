#!/usr/bin/python3
"""tools/train_reader.py's --dev-quarter and tools/dev_quarter.py on a small split set made here:
which photos form the dev quarter (every 4th of the train split by name, never a valid or test
photo), load_split leaving them out of training and validation, and the eval folder the tool
writes (its truth rows, a photo of more than 32 dice left out, the salt-and-pepper dots put back
to their median and nothing else changed).

  tests/test_dev_quarter.py

Exits 1 on a failed check; 77 (skipped) without python3-torch, python3-numpy or python3-opencv
(tools/setup.sh --train installs them).
"""
import csv
import pathlib
import subprocess
import sys
import tempfile

import tool_checks
from tool_checks import TOOLS, check, finish

tr = tool_checks.train_reader()
import cv2  # noqa: E402
import numpy as np  # noqa: E402

# Nine train photos (t0..t8), two valid, one test; t7 holds 33 dice.
SPLITS = [(f"t{i}.jpg", "train") for i in range(9)] + [("v0.jpg", "valid"), ("v1.jpg", "valid"),
                                                       ("x0.jpg", "test")]

with tempfile.TemporaryDirectory() as tmp:
    root = pathlib.Path(tmp) / "set"
    (root / "images").mkdir(parents=True)
    rng = np.random.default_rng(5)
    ground = np.full((64, 64, 3), 120, np.uint8)
    ground[20:40, 20:40] = (200, 180, 160)  # a die
    dotted = ground.copy()
    dots = rng.choice(64 * 64, 40, replace=False)
    dotted.reshape(-1, 3)[dots] = np.where(rng.random(40) < 0.5, 0, 255)[:, None]
    with open(root / "splits.csv", "w") as f:
        f.write("file,split\n" + "".join(f"{name},{split}\n" for name, split in SPLITS))
    with open(root / "labels.csv", "w") as f:
        f.write("file,value,x,y,w,h\n")
        for name, _ in SPLITS:
            for k in range(33 if name == "t7.jpg" else 1):
                f.write(f"{name},{k % 6 + 1},20,20,20,20\n")
            cv2.imwrite(str(root / "images" / name), dotted if name == "t3.jpg" else ground)
    cv2.imwrite(str(root / "images" / "t3.png"), dotted)  # the dotted picture, losslessly

    quarter = tr.dev_quarter(root)
    check(quarter == {"t3.jpg", "t7.jpg"}, f"dev_quarter: every 4th train photo by name ({quarter})")
    check(tr.dev_quarter(pathlib.Path(tmp)) == set(), "dev_quarter: none for a set without splits")

    train, val = tr.load_split([root])
    kept_train, kept_val = tr.load_split([root], leave_dev_quarter=True)
    names = lambda scenes: sorted(scene[0].split("/")[-1] for scene in scenes)  # noqa: E731
    check(names(train) == [f"t{i}.jpg" for i in range(9)] and
          names(val) == ["v0.jpg", "v1.jpg", "x0.jpg"], "load_split: the splits as they are")
    check(names(kept_train) == ["t0.jpg", "t1.jpg", "t2.jpg", "t4.jpg", "t5.jpg", "t6.jpg",
                                "t8.jpg"] and names(kept_val) == names(val),
          "load_split without the dev quarter: it is neither trained on nor validated on")

    crop_nets = tr.crop_net_arguments("", "", 1, 1e-3)  # train_die_or_not's, the refiner's
    check(crop_nets.parse_args([tmp, "--dev-quarter"]).dev_quarter and
          not crop_nets.parse_args([tmp]).dev_quarter,
          "crop_net_arguments: --dev-quarter, off unless given")

    out = pathlib.Path(tmp) / "dev"
    run = subprocess.run([sys.executable, str(TOOLS / "dev_quarter.py"), str(root), str(out)],
                         capture_output=True, text=True)
    check(run.returncode == 0, f"dev_quarter.py runs ({run.stderr.strip()})")
    with open(out / "truth.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    check([row["file"] for row in rows] == ["t3.jpg"] and rows[0]["w"] == "20",
          "dev_quarter.py: the quarter's truth rows, the photo of 33 dice left out")
    check(sorted(p.name for p in out.glob("*.jpg")) == ["t3.jpg"], "dev_quarter.py: its photos")
    check([(name.split("/")[-1], held) for name, _, _, held, _ in tr.load_set(out)] ==
          [("t3.jpg", True)], "dev_quarter.py: load_set reads the folder as held out")

    from dev_quarter import clean_dots  # noqa: E402  (tools/ is on the path: train_reader)
    cleaned = clean_dots(cv2.imread(str(root / "images" / "t3.png")))
    check(np.array_equal(cleaned, ground), "clean_dots: every dot back to its ground, die intact")
    check(np.array_equal(clean_dots(ground), ground), "clean_dots: a photo without dots unchanged")

    bad = subprocess.run([sys.executable, str(TOOLS / "dev_quarter.py"), tmp, str(out)],
                         capture_output=True, text=True)
    check(bad.returncode != 0 and "no splits.csv" in bad.stderr,
          "dev_quarter.py: a set without splits is an error naming it")

finish()
