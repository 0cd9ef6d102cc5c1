"""Per-die truth from the mask pass: visible bounding box and whether the top can be read; and
each die's top face, from the scene's geometry."""
import collections
import csv

import numpy as np

from . import pov, scene as scenes

READABLE_TOP_FRACTION = 0.5  # less of the top face than this in view: a person could not read it


def _polygon_area(points):
    x, y = points[:, 0], points[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def top_face_area_px(camera, die):
    """Pixel area the flat part of the top face would cover if nothing hid it."""
    flat = die.half_edge - die.edge_radius
    corners = np.array([[-flat, die.half_edge, -flat], [flat, die.half_edge, -flat],
                        [flat, die.half_edge, flat], [-flat, die.half_edge, flat]])
    px, _ = camera.project(corners @ die.rest_rotation.T + die.center)
    return _polygon_area(px)


def dice_truth(scene, mask_bgr):
    """One dict per die that shows at least one pixel, in the scene's order: value, x, y, w, h,
    top_visible, plus top_fraction (visible share of the top face) for checks and logs."""
    red = mask_bgr[:, :, 2].astype(int)
    green = mask_bgr[:, :, 1]
    rows = []
    for index, die in enumerate(scene.dice):
        level, _ = pov.mask_colour(index, False)
        mine = np.abs(red - level) <= 8
        ys, xs = np.nonzero(mine)
        if len(xs) == 0:
            continue
        top_pixels = int(np.count_nonzero(mine & (green > 128)))
        fraction = top_pixels / max(top_face_area_px(scene.camera, die), 1.0)
        rows.append(dict(value=die.value, x=int(xs.min()), y=int(ys.min()),
                         w=int(xs.max() - xs.min() + 1), h=int(ys.max() - ys.min() + 1),
                         top_visible=int(fraction >= READABLE_TOP_FRACTION),
                         top_fraction=fraction))
    return rows


def dice_labels(scene, mask_bgr):
    """The mask pass as one label per pixel: 0 where no die shows, k + 1 where the die of
    dice_truth's row k does (its visible pixels). For training-time compositing."""
    red = mask_bgr[:, :, 2].astype(int)
    labels = np.zeros(red.shape, np.uint8)
    shown = 0
    for index in range(len(scene.dice)):
        level, _ = pov.mask_colour(index, False)
        mine = np.abs(red - level) <= 8
        if mine.any():
            shown += 1
            labels[mine] = shown
    return labels


def top_face_corners(camera, die):
    """The four corners of the die's top face (the cube's top square, rounded edges included)
    in image pixels, clockwise on screen."""
    h = die.half_edge
    corners = np.array([[-h, h, -h], [h, h, -h], [h, h, h], [-h, h, h]])
    px, _ = camera.project(corners @ die.rest_rotation.T + die.center)
    x, y = px[:, 0], px[:, 1]
    if np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)) < 0:  # y points down: >0 is clockwise
        px = px[::-1]
    return px


def truth_rows(folder):
    """{file: [truth.csv rows (dicts) of that photo, in order]} of a render folder."""
    rows = collections.defaultdict(list)
    with open(folder / "truth.csv", newline="") as f:
        for row in csv.DictReader(f):
            rows[row["file"]].append(row)
    return rows


def top_faces(folder):
    """{file: [top_face_corners of each truth.csv row's die, or None]} of a render folder,
    without rendering: each scene is drawn again from its seed (scenes.csv), and a row is
    matched to the die of its value whose top face's centre is in its box, nearest the box's
    centre."""
    rows = truth_rows(folder)
    faces = {}
    with open(folder / "scenes.csv", newline="") as f:
        for info in csv.DictReader(f):
            world = info.get("world") or "0"  # folders rendered before --world: plain
            scene = scenes.sample_scene(int(info["seed"]), max(int(info["width"]), int(info["height"])),
                                        close_up=info.get("close_up") == "1", world=world != "0",
                                        clutter_only=world == "2")
            corners = [(die.value, top_face_corners(scene.camera, die)) for die in scene.dice]
            faces[info["file"]] = [_match_die(row, corners) for row in rows[info["file"]]]
    return faces


def _match_die(row, corners):
    x, y, w, h = (float(row[k]) for k in "xywh")
    best, best_distance = None, None
    for value, face in corners:
        cx, cy = face.mean(0)
        if value != int(row["value"]) or not (x <= cx <= x + w and y <= cy <= y + h):
            continue
        distance = np.hypot(cx - x - w / 2, cy - y - h / 2)
        if best is None or distance < best_distance:
            best, best_distance = face, distance
    return best
