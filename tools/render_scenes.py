#!/usr/bin/python3
"""Render photo-like scenes of giant yard dice on a lawn with POV-Ray, with truth files.

  tools/render_scenes.py --out samples/lawn --count 160 --seed 1
  tools/render_scenes.py --out samples/readme --scene-seeds 11,22,33,44
  tools/render_scenes.py --bench-photo /tmp/bench.jpg      # one 4000x3000 JPEG
  tools/render_scenes.py --out /tmp/close --count 100 --seed 71000 --close-up
  tools/render_scenes.py --out /tmp/world --count 200 --seed 93000 --world
  tools/render_scenes.py --out /tmp/clutter --count 200 --seed 95000 --world --clutter-only

Each scene is drawn from its own seed (recorded in scenes.csv), so a batch or one scene can be
redone exactly. Needs povray, python3-numpy, python3-opencv: tools/setup-render.sh.
See tools/render/README.md for what is varied and the truth format.
"""
import argparse
import csv
import functools
import math
import multiprocessing
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from render import ground_cover, jpeg_exif, pov, scene as scenes, truth, world  # noqa: E402

MAX_JPEG_BYTES = 250_000
OCCLUDER_REACH_M = 0.15  # a 7 cm blade seen from 35 degrees hides ground up to 10 cm behind it
BENCH_SCENE_SEED = 20240501
LOW_CAMERA_DEG = 50  # five-dice renders read right: 84.7 % at 35-40 deg, 91.6 % at 40-50, ~98 % above
SUN_GLARE_DEG = 10  # see Scene.sun_glare_deg
DEFAULT_JOBS = 2 * len(os.sched_getaffinity(0))  # render_batch's; --jobs
TRUTH_HEADER = ["file", "value", "x", "y", "w", "h", "top_visible"]
SCENES_HEADER = ["file", "n_dice", "orientation", "width", "height", "camera_elevation_deg",
                 "camera_height_m", "light", "sun_elevation_deg", "die_material", "pip_colour",
                 "die_size_cm", "touching", "occluded", "seed", "pip_style", "ground",
                 "cut_off", "close_up", "world", "surface", "soil_fraction", "die_colour",
                 "die_finish", "edge_rounding", "distractors", "camera_fov_deg",
                 "motion_blur_px", "jpeg_quality"]


def run_povray(workdir, pov_name, png_name, width, height, extra):
    # nice and one thread each: render_batch runs several at once, beside builds.
    cmd = ["nice", "-n", "10", "povray", f"+I{pov_name}", f"+O{png_name}", f"+W{width}",
           f"+H{height}", "+FN8", "-D", "+WT1", "-V", "-GS", "-GR"] + extra
    done = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"povray failed on {pov_name}:\n{done.stderr[-2000:]}")
    image = cv2.imread(str(workdir / png_name), cv2.IMREAD_COLOR)
    if image is None:
        raise RuntimeError(f"povray wrote no image for {pov_name}")
    return image


def ground_cover_includes(scene):
    """Two include files' text and mesh names: cover near the dice, and the rest.

    The mask pass only needs what can hide a die, which keeps its parse short.
    """
    rng = np.random.default_rng([scene.seed, 1])  # its own stream: same seed, same lawn
    if scene.world is not None:
        return world_cover_includes(rng, scene)
    blade_height = {"lush": (0.025, 0.06), "dry": (0.02, 0.05), "autumn": (0.025, 0.07)}
    blades = ground_cover.blades(rng, scene.dice, scene.camera, blade_height[scene.ground.palette])
    near = ground_cover.distance_to_dice(blades.roots_xz(), scene.dice) < OCCLUDER_REACH_M
    near_items = [blades.subset(near),
                  ground_cover.leaves(rng, scene.dice, scene.ground.n_leaves),
                  ground_cover.clover(rng, scene.dice, scene.ground.n_clover_patches)]
    return (ground_cover.include_text("Near", near_items),
            ground_cover.include_text("Far", [blades.subset(~near)]))


def world_cover_includes(rng, scene):
    """ground_cover_includes for --world: blades only on grass, around where the dice are
    (or would be), none through flat clutter; fallen leaves on any ground."""
    layout = scene.layout_dice
    n_leaves = sum(d.variant for d in scene.world.distractors if d.kind == "leaves")
    near_items, far_items = [], []
    if scene.world.surface.kind == "grass":
        blade_height = {"lush": (0.025, 0.06), "dry": (0.02, 0.05), "autumn": (0.025, 0.07)}
        blades = ground_cover.blades(rng, scene.dice, scene.camera,
                                     blade_height[scene.ground.palette], extent=layout,
                                     bare=world.no_grass(scene.world))
        near = ground_cover.distance_to_dice(blades.roots_xz(), scene.dice) < OCCLUDER_REACH_M
        near_items += [blades.subset(near),
                       ground_cover.clover(rng, scene.dice, scene.ground.n_clover_patches,
                                           extent=layout)]
        far_items.append(blades.subset(~near))
    if n_leaves:
        near_items.append(ground_cover.leaves(rng, scene.dice, n_leaves, extent=layout))
    return (ground_cover.include_text("Near", near_items),
            ground_cover.include_text("Far", far_items))


def motion_blur(image, length_px, angle_deg):
    """A hand that moved while the shutter was open: a line kernel."""
    size = int(math.ceil(length_px)) | 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    dx, dy = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    for t in np.linspace(-length_px / 2, length_px / 2, 4 * size):
        kernel[int(round(c + t * dy)), int(round(c + t * dx))] = 1
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def phone_look(render_bgr, scene):
    """What a phone adds to the optics: exposure, white balance, vignetting, sensor noise."""
    rng = np.random.default_rng([scene.seed, 2])
    photo = scene.photo
    image = render_bgr.astype(np.float32) * photo.exposure * np.array(photo.tint, np.float32)
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    image *= (1 - photo.vignette * r2)[:, :, None]
    image = cv2.GaussianBlur(image, (0, 0), photo.blur_sigma)
    if scene.world is not None and scene.world.motion_blur_px > 0:
        image = motion_blur(image, scene.world.motion_blur_px, scene.world.motion_blur_deg)
    image += rng.normal(0, photo.noise_sigma, image.shape).astype(np.float32)
    return np.clip(image + 0.5, 0, 255).astype(np.uint8)


def encode_within_budget(image, photo, max_bytes):
    """JPEG at the scene's quality, stepping down only if grass detail blows the budget."""
    quality = photo.jpeg_quality
    while True:
        data = jpeg_exif.encode(image, quality, photo.orientation, photo.write_exif,
                                photo.exif_big_endian)
        if len(data) <= max_bytes or quality <= min(70, photo.jpeg_quality):
            return data
        quality -= 3


def render_scene(scene, out_path, supersample, max_bytes, keep_dir=None, masks=False):
    """Render one scene to out_path; return the truth rows (upright image coordinates). With
    masks, also each die's visible pixels beside it (NAME.mask.png, truth.dice_labels)."""
    cam = scene.camera
    with tempfile.TemporaryDirectory(prefix="yardzee-render-") as tmp:
        work = pathlib.Path(keep_dir or tmp)
        work.mkdir(parents=True, exist_ok=True)
        (near_text, near_names), (far_text, far_names) = ground_cover_includes(scene)
        (work / "near.inc").write_text(near_text)
        (work / "far.inc").write_text(far_text)
        (work / "photo.pov").write_text(
            pov.photo_scene(scene, ["near.inc", "far.inc"], near_names + far_names))
        (work / "mask.pov").write_text(pov.mask_scene(scene, ["near.inc"], near_names))
        # No POV-Ray antialiasing: grass makes it supersample nearly every pixel (3x the
        # time); phone_look's slight blur does what a phone lens and demosaicing do.
        render = run_povray(work, "photo.pov", "photo.png", cam.width * supersample,
                            cam.height * supersample, ["-A"])
        mask = run_povray(work, "mask.pov", "mask.png", cam.width, cam.height,
                          ["-A", "File_Gamma=1.0"])
    if supersample > 1:
        render = cv2.resize(render, (cam.width, cam.height), interpolation=cv2.INTER_AREA)
    data = encode_within_budget(phone_look(render, scene), scene.photo, max_bytes)
    pathlib.Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(out_path).write_bytes(data)
    if masks:
        cv2.imwrite(str(pathlib.Path(out_path).with_suffix(".mask.png")),
                    truth.dice_labels(scene, mask))
    return truth.dice_truth(scene, mask)


def scene_row(name, scene, n_rows):
    light = scene.light
    return [name, n_rows, scene.photo.orientation, scene.camera.width, scene.camera.height,
            f"{scene.camera_elevation_deg:.1f}", f"{scene.camera_height_m:.2f}", light.kind,
            "" if light.kind == "overcast" else f"{light.elevation_deg:.1f}", scene.material,
            scene.pip_colour, f"{scene.die_size_cm:.1f}", int(scene.touching),
            int(scene.occluded), scene.seed, scene.pip_style, scene.ground.palette,
            int(scene.cut_off), int(scene.close_up)] + world_columns(scene)


def world_columns(scene):
    """scenes.csv's --world columns, so an evaluation can break its numbers down; plain scenes
    leave them empty but for world = 0."""
    extra = scene.world
    if extra is None:
        return [0] + [""] * (len(SCENES_HEADER) - SCENES_HEADER.index("world") - 1)
    finish = extra.finish
    return [2 if extra.clutter_only else 1, extra.surface.kind,
            f"{extra.surface.soil_fraction:.2f}", finish.colour,
            "marbled" if finish.swirl_srgb else "gloss" if finish.gloss else "matte",
            f"{finish.rounding:.3f}",
            ";".join(extra.distractor_kinds()), f"{scene.fov_deg:.1f}",
            f"{extra.motion_blur_px:.1f}", scene.photo.jpeg_quality]


def render_numbered(numbered_seed, out_dir, long_side, supersample, prefix, close_up, world_args,
                    masks):
    """One scene of a batch, in a worker: its name, seed, truth rows, scenes.csv row and time."""
    number, seed = numbered_seed
    started = time.monotonic()
    scene = scenes.sample_scene(seed, long_side, close_up=close_up, **world_args)
    name = f"{prefix}{number:03d}.jpg"
    rows = render_scene(scene, out_dir / name, supersample, MAX_JPEG_BYTES, masks=masks)
    return name, seed, rows, scene_row(name, scene, len(rows)), time.monotonic() - started


def render_batch(out_dir, seeds, long_side, supersample, prefix, close_up, world_args,
                 masks=False, jobs=1):
    """Render the scenes, jobs at a time. Each scene depends on its seed alone and the files
    are written in the seeds' order, so any number of jobs gives the same folder."""
    out_dir.mkdir(parents=True, exist_ok=True)
    render_one = functools.partial(render_numbered, out_dir=out_dir, long_side=long_side,
                                   supersample=supersample, prefix=prefix, close_up=close_up,
                                   world_args=world_args, masks=masks)
    with open(out_dir / "truth.csv", "w", newline="") as truth_file, \
            open(out_dir / "scenes.csv", "w", newline="") as scenes_file, \
            multiprocessing.Pool(jobs) as pool:
        truth_csv, scenes_csv = (csv.writer(truth_file, lineterminator="\n"),
                                 csv.writer(scenes_file, lineterminator="\n"))
        truth_csv.writerow(TRUTH_HEADER)
        scenes_csv.writerow(SCENES_HEADER)
        for name, seed, rows, scene_line, seconds in pool.imap(render_one, enumerate(seeds)):
            for row in rows:
                truth_csv.writerow([name] + [row[k] for k in TRUTH_HEADER[1:]])
            scenes_csv.writerow(scene_line)
            truth_file.flush()
            scenes_file.flush()
            print(f"{name} seed={seed} {seconds:.1f}s "
                  f"{(out_dir / name).stat().st_size // 1024}KB "
                  f"tops={[round(r['top_fraction'], 2) for r in rows]}", flush=True)


def low_camera(scene):
    """Shot from LOW_CAMERA_DEG or lower (about a third of --world scenes): side faces large in
    view, top faces foreshortened: where half the frozen set's lost dice are (READER_HISTORY.md,
    forty-second try)."""
    return scene.camera_elevation_deg <= LOW_CAMERA_DEG


def low_and_crowded(scene):
    """A low camera (low_camera) on dice touching or one behind another: where the reader fails
    most."""
    return low_camera(scene) and (scene.touching or scene.occluded)


def one_behind_another(scene):
    """A die placed partly behind another (about a sixth of the scenes): the detector takes the
    two for one when they are far (yardzee eval's "inside another die's box")."""
    return scene.occluded


def six_close(scene):
    """Six dice, two of them touching or one behind another (about 3 % of scenes): if the
    detector takes the two for one or misses the one behind, the photo shows five dice, and with
    five expected it must still be refused (READER_HISTORY.md, twenty-ninth try)."""
    return len(scene.dice) == 6 and (scene.touching or scene.occluded)


def sun_glare(scene):
    """Gloss paint with the sun mirrored in a top face towards the camera (about 3 % of scenes)."""
    glare = scene.sun_glare_deg()
    return glare is not None and glare <= SUN_GLARE_DEG


def cut_off(scene):
    """A die placed across the frame's edge (about 6 % of scenes)."""
    return scene.cut_off


# The --world grounds on which the detector missed the most dice in a fresh world render (seed
# 141000: blanket 45 %, procedural 30 %, gravel 20 %, sand 19 %, grass 7 %; READER_HISTORY.md,
# eleventh try).
HARD_GROUNDS = ("blanket", "procedural", "gravel", "sand")


def hard_ground(scene):
    """A --world scene on one of HARD_GROUNDS."""
    return scene.world is not None and scene.world.surface.kind in HARD_GROUNDS


def kept_seeds(batch_seed, count, long_side, close_up, keep, world_args=None):
    """The first count scene seeds of a batch whose scene passes keep. A close-up (or a --world
    crouching) camera sees too little ground to place the dice of some draws: those are passed
    over."""
    seeds = []
    index = 0
    world_args = world_args or {}
    while len(seeds) < count:
        seed = scenes.scene_seed(batch_seed, index)
        try:
            scene = scenes.sample_scene(seed, long_side, close_up=close_up, **world_args)
        except RuntimeError:
            if not (close_up or world_args.get("world")):
                raise
            scene = None
        if scene is not None and keep(scene):
            seeds.append(seed)
        index += 1
    return seeds


def render_bench_photo(out_path, scene_seed):
    """A 4000x3000 photo, rendered at full size, with its truth in a .csv beside it."""
    scene = scenes.sample_scene(scene_seed, 4000, landscape_only=True)
    photo = scene.photo
    photo.orientation, photo.write_exif, photo.jpeg_quality = 1, True, 90
    rows = render_scene(scene, out_path, 1, max_bytes=1 << 30)
    with open(pathlib.Path(out_path).with_suffix(".csv"), "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(TRUTH_HEADER)
        for row in rows:
            writer.writerow([pathlib.Path(out_path).name] + [row[k] for k in TRUTH_HEADER[1:]])


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=pathlib.Path, help="directory for JPEGs and truth")
    parser.add_argument("--count", type=int, default=160)
    parser.add_argument("--seed", type=int, default=1, help="batch seed")
    parser.add_argument("--scene-seeds", help="comma-separated scene seeds (from scenes.csv) "
                        "to render instead of a batch")
    parser.add_argument("--low-and-crowded", action="store_true",
                        help=f"keep only scenes shot from {LOW_CAMERA_DEG} degrees or lower with "
                        "dice touching or one behind another (the hardest to read), until --count "
                        "are kept")
    parser.add_argument("--low-camera", action="store_true",
                        help=f"keep only scenes shot from {LOW_CAMERA_DEG} degrees or lower, "
                        "until --count are kept")
    parser.add_argument("--one-behind-another", action="store_true",
                        help="keep only scenes with a die placed partly behind another, until "
                        "--count are kept")
    parser.add_argument("--six-close", action="store_true",
                        help="keep only scenes of six dice with two touching or one behind "
                        "another, until --count are kept")
    parser.add_argument("--sun-glare", action="store_true",
                        help="keep only scenes of gloss-painted dice with the sun mirrored in a top "
                        f"face within {SUN_GLARE_DEG} degrees of the camera, until --count are kept")
    parser.add_argument("--cut-off", action="store_true",
                        help="keep only scenes with a die placed across the frame's edge, until "
                        "--count are kept")
    parser.add_argument("--hard-ground", action="store_true",
                        help="with --world: keep only scenes on the grounds where the detector "
                        f"misses most dice ({', '.join(HARD_GROUNDS)}), until --count are kept")
    parser.add_argument("--close-up", action="store_true",
                        help="hold the camera %.1f-%.1f m high instead of %.1f-%.1f m: a player "
                        "crouching close to the dice (scenes.csv's close_up is 1; --scene-seeds "
                        "needs it again)" % (scenes.CLOSE_UP_CAMERA_HEIGHT_M + scenes.CAMERA_HEIGHT_M))
    parser.add_argument("--world", action="store_true",
                        help="draw from the wider world (tools/render/world.py): dice of every "
                        "finish, grounds beyond grass, lawn clutter, dappled shade, crouching and "
                        "30 degree cameras, a rougher phone (scenes.csv's world is 1; "
                        "--scene-seeds needs it again)")
    parser.add_argument("--marbled", type=float, default=0.0, metavar="SHARE",
                        help="with --world: this share of the scenes whose dice are painted "
                        "plastic get marbled dice, pale or coloured veins swirling through the "
                        "body (scenes.csv's die_finish is marbled); 0 leaves every scene as before")
    parser.add_argument("--clutter-only", action="store_true",
                        help="with --world: no dice, only ground and clutter where they would be "
                        "(hard negatives; truth.csv has no rows, scenes.csv's world is 2)")
    parser.add_argument("--long-side", type=int, default=1024)
    parser.add_argument("--supersample", type=int, default=1,
                        help="render this many times larger and shrink: cheap antialiasing")
    parser.add_argument("--prefix", default="lawn_", help="file name prefix")
    parser.add_argument("--bench-photo", type=pathlib.Path,
                        help="write one 4000x3000 JPEG (and its truth .csv) here and stop")
    parser.add_argument("--masks", action="store_true",
                        help="also write each scene's dice pixels (NAME.mask.png: 0 no die, k + 1 "
                        "truth row k's die) for tools/train_reader.py's --paste")
    parser.add_argument("--jobs", type=int, default=DEFAULT_JOBS,
                        help="scenes rendered at once (default: twice the cores this process may "
                        "use; a POV-Ray run spends about 0.6 s waiting on itself, which another "
                        "run's work fills)")
    parser.add_argument("--keep-pov", type=pathlib.Path,
                        help="render the first scene only, leaving its POV-Ray files here")
    args = parser.parse_args()

    if args.bench_photo:
        render_bench_photo(args.bench_photo, BENCH_SCENE_SEED)
        return
    if args.out is None:
        parser.error("--out is required")
    if args.clutter_only and not args.world:
        parser.error("--clutter-only needs --world")
    if args.hard_ground and not args.world:
        parser.error("--hard-ground needs --world")
    if args.marbled and not args.world:
        parser.error("--marbled needs --world")
    world_args = ({"world": True, "clutter_only": args.clutter_only, "marbled": args.marbled}
                  if args.world else {})
    wanted = [keep for flag, keep in ((args.low_and_crowded, low_and_crowded),
                                      (args.low_camera, low_camera),
                                      (args.one_behind_another, one_behind_another),
                                      (args.six_close, six_close),
                                      (args.sun_glare, sun_glare), (args.cut_off, cut_off),
                                      (args.hard_ground, hard_ground))
              if flag]
    if args.scene_seeds:
        seeds = [int(s) for s in args.scene_seeds.split(",")]
    elif wanted or args.close_up or args.world:
        seeds = kept_seeds(args.seed, args.count, args.long_side, args.close_up,
                           lambda scene: all(keep(scene) for keep in wanted), world_args)
    else:
        seeds = [scenes.scene_seed(args.seed, i) for i in range(args.count)]
    if args.keep_pov:
        scene = scenes.sample_scene(seeds[0], args.long_side, close_up=args.close_up,
                                    **world_args)
        args.out.mkdir(parents=True, exist_ok=True)
        rows = render_scene(scene, args.out / "kept.jpg", args.supersample, MAX_JPEG_BYTES,
                            keep_dir=args.keep_pov)
        print(rows)
        return
    render_batch(args.out, seeds, args.long_side, args.supersample, args.prefix, args.close_up,
                 world_args, args.masks, max(1, args.jobs))


if __name__ == "__main__":
    main()
