#!/usr/bin/python3
"""tools/render_scenes.py's --six-close keeps only scenes of six dice with two touching or one
behind another, on the lawn and in the world, and passes over every other scene before the
last it keeps. The batch's scenes are drawn again from their seeds; nothing is rendered.

  tests/test_render_filters.py   # exits 77 (skipped) without python3-opencv or python3-numpy
"""
import pathlib
import sys

try:
    import cv2  # noqa: F401
    import numpy  # noqa: F401
except ImportError:
    print("skipped: python3-opencv or python3-numpy is not installed")
    sys.exit(77)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
import render_scenes  # noqa: E402
from render import scene as scenes  # noqa: E402


def six_close(seed, world_args):
    try:
        scene = scenes.sample_scene(seed, 640, **world_args)
    except RuntimeError:  # a world camera that saw too little ground to place the dice
        return False
    return len(scene.dice) == 6 and (scene.touching or scene.occluded)


def main():
    for world_args in ({}, {"world": True, "clutter_only": False}):
        kept = render_scenes.kept_seeds(7300, 3, 640, False, render_scenes.six_close, world_args)
        batch, index = [], 0
        while len([seed for seed in batch if seed in kept]) < 3:
            batch.append(scenes.scene_seed(7300, index))
            index += 1
        wanted = [seed for seed in batch if six_close(seed, world_args)]
        assert wanted == kept, (world_args, wanted, kept)
        assert len(batch) > 3, "every scene drawn was six close dice: the filter is not tested"
    print("render_filters: --six-close keeps six dice touching or one behind another")


if __name__ == "__main__":
    main()
