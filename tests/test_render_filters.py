#!/usr/bin/python3
"""tools/render_scenes.py's --six-close keeps only scenes of six dice with two touching or one
behind another, and --low-camera only scenes shot from 50 degrees or lower, on the lawn and in
the world, each passing over every other scene before the last it keeps. --marbled gives
painted dice veins and changes no other draw of a scene, so the folders drawn before it (the
frozen set among them) stay as they were. The batch's scenes are drawn again from their seeds;
nothing is rendered.

  tests/test_render_filters.py   # exits 77 (skipped) without python3-opencv or python3-numpy
"""
import pathlib
import pickle
import sys

try:
    import cv2  # noqa: F401
    import numpy  # noqa: F401
except ImportError:
    print("skipped: python3-opencv or python3-numpy is not installed")
    sys.exit(77)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
import render_scenes  # noqa: E402
from render import scene as scenes, world  # noqa: E402


def six_close(scene):
    return len(scene.dice) == 6 and (scene.touching or scene.occluded)


def low_camera(scene):
    return scene.camera_elevation_deg <= 50


def passes(keep, seed, world_args):
    try:
        scene = scenes.sample_scene(seed, 640, **world_args)
    except RuntimeError:  # a world camera that saw too little ground to place the dice
        return False
    return keep(scene)


def same(a, b):
    """Whether two drawn things are alike to the byte (numpy arrays and all)."""
    return pickle.dumps(a) == pickle.dumps(b)


def check_marbled():
    """Every world scene drawn with --marbled 1 is the scene drawn without it, but for the dice of
    painted plastic: veins and painted pips."""
    marbled = 0
    for index in range(40):
        seed = scenes.scene_seed(7400, index)
        try:
            plain = scenes.sample_scene(seed, 640, world=True)
            veined = scenes.sample_scene(seed, 640, world=True, marbled=1.0)
        except RuntimeError:  # a world camera that saw too little ground to place the dice
            continue
        before, after = plain.world.finish, veined.world.finish
        # Without --marbled the finish is the one the world's stream draws, as before it existed.
        stream = numpy.random.default_rng([seed, 24])
        stream.choice([4, 5, 6], p=[0.1, 0.8, 0.1])  # the number of dice, drawn first
        assert before == world.sample_finish(stream), seed
        if after.swirl_srgb is None:
            assert after == before, seed
        else:
            marbled += 1
            assert before.material in world.MARBLE_BODIES, (seed, before.material)
            assert after.pip_style == "painted" and veined.pip_colour == after.pip_colour, seed
        for field in ("dice", "camera", "light", "ground", "photo", "touching", "occluded"):
            assert same(getattr(plain, field), getattr(veined, field)), (seed, field)
        for field in ("surface", "distractors", "motion_blur_px", "canopy"):
            assert same(getattr(plain.world, field), getattr(veined.world, field)), (seed, field)
    assert marbled >= 10, f"only {marbled} of 40 scenes marbled: --marbled is not tested"


def main():
    check_marbled()
    for keep, filtered in ((six_close, render_scenes.six_close),
                           (low_camera, render_scenes.low_camera)):
        for world_args in ({}, {"world": True, "clutter_only": False}):
            kept = render_scenes.kept_seeds(7300, 3, 640, False, filtered, world_args)
            batch, index = [], 0
            while len([seed for seed in batch if seed in kept]) < 3:
                batch.append(scenes.scene_seed(7300, index))
                index += 1
            wanted = [seed for seed in batch if passes(keep, seed, world_args)]
            assert wanted == kept, (keep.__name__, world_args, wanted, kept)
            assert len(batch) > 3, f"every scene drawn passed {keep.__name__}: it is not tested"
    print("render_filters: --six-close keeps six dice touching or one behind another, "
          "--low-camera cameras at 50 degrees or lower; --marbled changes only the dice's finish")


if __name__ == "__main__":
    main()
