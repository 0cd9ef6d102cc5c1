"""What `--world` adds to a scene: dice of every finish, grounds beyond grass, lawn clutter that
must never count as a die, dappled shade, and a rougher phone.

Drawn here, from the scene's own numpy Generator (scene.sample_scene calls these only when world
is asked for, so a scene drawn without it is the same as before). Nothing here knows POV-Ray;
tools/render/pov_world.py writes what is drawn here.
"""
import dataclasses
import math

import numpy as np

# Body colours (sRGB) of painted and foam dice, as sold: bright toy colours, not pastel.
PAINT = {
    "white": (236, 234, 226), "black": (22, 22, 24), "red": (178, 24, 22), "blue": (26, 60, 150),
    "green": (30, 120, 50), "yellow": (236, 196, 30), "orange": (232, 110, 20),
    "purple": (96, 40, 130),
}
PIP_PAINT = {
    "black": (14, 12, 11), "white": (240, 238, 232), "red": (190, 20, 20), "blue": (20, 50, 170),
    "green": (20, 110, 40), "yellow": (240, 200, 20), "gold": (200, 160, 60),
}
WOODS = ("natural_wood", "dark_wood", "grey_wood")
# die_material -> weight; foam dice come in the paint colours, with strongly rounded edges.
WORLD_MATERIALS = {"natural_wood": 0.16, "dark_wood": 0.08, "grey_wood": 0.08, "foam": 0.12,
                   "white": 0.1, "black": 0.08, "red": 0.08, "blue": 0.07, "green": 0.06,
                   "yellow": 0.06, "orange": 0.06, "purple": 0.05}
SURFACES = {"grass": 0.45, "soil": 0.1, "sand": 0.07, "gravel": 0.08, "paving": 0.08,
            "decking": 0.08, "blanket": 0.06, "procedural": 0.08}
# kind -> (chance in a world scene, chance in a --clutter-only scene, (fewest, most))
DISTRACTORS = {
    "toy_block": (0.3, 0.7, (1, 3)), "brick": (0.15, 0.4, (1, 2)), "cup": (0.12, 0.35, (1, 1)),
    "scorecard": (0.15, 0.4, (1, 1)), "ball": (0.2, 0.45, (1, 2)), "daisy": (0.3, 0.5, (8, 60)),
    "clover_flower": (0.3, 0.5, (8, 60)), "pine_cone": (0.15, 0.35, (1, 5)),
    "hose": (0.1, 0.25, (1, 1)), "shoe": (0.1, 0.25, (1, 2)), "bottle_cap": (0.15, 0.35, (1, 3)),
    "leaves": (0.35, 0.5, (10, 60)),
}
# Radius (m) of ground each kind covers, for keeping things apart.
FOOTPRINT_M = {"toy_block": 0.07, "brick": 0.13, "cup": 0.06, "scorecard": 0.12, "ball": 0.1,
               "daisy": 0.02, "clover_flower": 0.015, "pine_cone": 0.06, "shoe": 0.17,
               "bottle_cap": 0.02}


def luminance(srgb):
    return 0.2126 * srgb[0] + 0.7152 * srgb[1] + 0.0722 * srgb[2]


@dataclasses.dataclass
class Finish:
    """How the dice of a world scene look; all dice of a set alike."""
    material: str  # one of WORLD_MATERIALS
    colour: str  # paint colour name, or the wood's name
    body_srgb: tuple  # for wood: the grain's light tone
    gloss: bool  # gloss paint or varnish (a tight highlight), else matte
    rounding: float  # edge radius as a fraction of the edge
    pip_colour: str
    pip_srgb: tuple
    pip_style: str  # drilled | painted
    pip_radius: float  # fraction of the edge
    pip_spacing: float  # fraction of the edge, centre to corner pip along an axis
    # Marbled plastic (tools/render_scenes.py --marbled): veins of this colour swirl through the
    # body, as in the gaming dice of byler-d6; None: a plain body.
    swirl_srgb: tuple = None


@dataclasses.dataclass
class Surface:
    kind: str  # one of SURFACES
    colours: list  # sRGB tuples, the kind's own meaning (see pov_world.surface)
    scale: float  # metres: the pattern's size
    pattern: str  # procedural only: the POV-Ray pattern
    soil_fraction: float  # grass only: share of bare soil and mud
    soil_scale: float  # grass only: patch size (m)
    soil_colours: list
    wet: bool  # mud: glossy patches
    # grass only: bare patches where no blade grows, (x, z, radius_x, radius_z, angle_rad)
    patches: list = dataclasses.field(default_factory=list)
    patch_noise: float = 0.0  # how ragged their edges are


@dataclasses.dataclass
class Distractor:
    kind: str
    xz: np.ndarray
    yaw_deg: float
    size: float  # the kind's main dimension, metres
    colour: tuple  # sRGB
    variant: int  # the kind's own choice (lying or standing, ball pattern, ...)
    points: np.ndarray = None  # hose: its path on the ground


@dataclasses.dataclass
class World:
    finish: Finish
    surface: Surface
    distractors: list
    canopy: float  # dappled shade: share of sky the leaves hide (0: no tree)
    canopy_scale: float
    canopy_offset: tuple
    motion_blur_px: float
    motion_blur_deg: float
    clutter_only: bool

    def distractor_kinds(self):
        return sorted({d.kind for d in self.distractors})


def sample_finish(rng):
    material = str(rng.choice(list(WORLD_MATERIALS), p=_norm(WORLD_MATERIALS.values())))
    rounding = rng.uniform(0.05, 0.12)
    if material == "foam":
        colour = str(rng.choice(list(PAINT)))
        rounding = rng.uniform(0.16, 0.24)
        gloss = False
    elif material in WOODS:
        colour = material
        gloss = rng.random() < (0.5 if material == "dark_wood" else 0.2)
    else:
        colour = material
        gloss = rng.random() < 0.6
    body = PAINT.get(colour, {"natural_wood": (222, 190, 140), "dark_wood": (96, 58, 34),
                              "grey_wood": (160, 156, 148)}.get(colour))
    pip_colour = _contrasting_pip(rng, body)
    pip_style = "painted" if material == "foam" or rng.random() < 0.45 else "drilled"
    pip_radius = rng.uniform(0.07, 0.1)
    # Corner pips stay on the flat face, however round the edges.
    pip_spacing = min(rng.uniform(0.24, 0.29), 0.5 - rounding - 1.15 * pip_radius)
    return Finish(material, colour, body, gloss, rounding, pip_colour, PIP_PAINT[pip_colour],
                  pip_style, pip_radius, pip_spacing)


# Marbled dice (marble_sometimes): the veins' colours, and the painted bodies that take them.
SWIRLS = {"white": (235, 235, 230), "grey": (150, 150, 155), "gold": (200, 160, 60),
          "light_blue": (120, 170, 230), "pink": (230, 140, 160)}
MARBLE_BODIES = ("black", "red", "blue", "green", "purple", "white", "yellow", "orange")


def marble_sometimes(seed, finish, share):
    """The finish with veins (swirl_srgb) in `share` of scenes whose dice are painted plastic.
    Drawn from its own stream, after every other draw, so a scene drawn with share 0 is the same
    as before marbled dice existed. The pips are drawn again, painted; the veins are of a
    colour apart from both body and pips (none such: a plain body)."""
    rng = np.random.default_rng([seed, 25])
    if share <= 0 or finish.material not in MARBLE_BODIES or rng.random() >= share:
        return finish
    pip = _contrasting_pip(rng, finish.body_srgb)
    veins = [k for k, v in SWIRLS.items() if abs(luminance(v) - luminance(finish.body_srgb)) > 40
             and abs(luminance(v) - luminance(PIP_PAINT[pip])) > 50]
    if not veins:
        return finish
    swirl = str(rng.choice(veins))
    return dataclasses.replace(finish, swirl_srgb=SWIRLS[swirl], pip_colour=pip,
                               pip_srgb=PIP_PAINT[pip], pip_style="painted")


def _contrasting_pip(rng, body):
    """Black, white or coloured pips, only ones a player could read on this body."""
    choices = [name for name, srgb in PIP_PAINT.items()
               if abs(luminance(srgb) - luminance(body)) > 70
               or (name not in ("black", "white") and _hue_distance(srgb, body) > 90
                   and abs(luminance(srgb) - luminance(body)) > 35)]
    plain = [c for c in choices if c in ("black", "white")]
    if plain and rng.random() < 0.7:
        return str(rng.choice(plain))
    return str(rng.choice(choices))


def _hue_distance(a, b):
    return float(np.linalg.norm(np.array(a, float) - np.array(b, float)))


def _norm(weights):
    w = np.array(list(weights), float)
    return w / w.sum()


def _browns(rng, n):
    """Soil and mud of every colour: yellow clay to red earth to near-black mud and grey dust."""
    base = np.array([rng.uniform(40, 150), 0, 0])
    base[1] = base[0] * rng.uniform(0.62, 0.95)
    base[2] = base[0] * rng.uniform(0.4, 0.85)
    return [tuple(float(c) for c in np.clip(base * rng.uniform(0.7, 1.3), 0, 255))
            for _ in range(n)]


def sample_surface(rng):
    kind = str(rng.choice(list(SURFACES), p=_norm(SURFACES.values())))
    colours, scale, pattern = [], 1.0, ""
    if kind == "soil":
        colours, scale = _browns(rng, 3), rng.uniform(0.02, 0.3)
    elif kind == "sand":
        tone = np.array([rng.uniform(170, 225), 0, 0])
        tone[1], tone[2] = tone[0] * rng.uniform(0.82, 0.92), tone[0] * rng.uniform(0.6, 0.75)
        colours = [tuple(float(c) for c in tone * f) for f in (0.85, 1.0, 1.08)]
        scale = rng.uniform(0.05, 0.4)
    elif kind == "gravel":
        grey = rng.uniform(90, 180)
        colours = [tuple(float(np.clip(grey * rng.uniform(0.6, 1.3) * w, 0, 255))
                         for w in (1, rng.uniform(0.9, 1.0), rng.uniform(0.8, 1.0)))
                   for _ in range(4)]
        scale = rng.uniform(0.008, 0.025)
    elif kind == "paving":
        stone = rng.uniform(100, 190)
        warm = rng.random() < 0.35
        colours = [(stone, stone * (0.72 if warm else 0.97), stone * (0.6 if warm else 0.93)),
                   (stone * 0.6,) * 3]
        scale = rng.uniform(0.2, 0.6)
        pattern = str(rng.choice(["brick", "checker", "hexagon"]))
    elif kind == "decking":
        colours = _browns(rng, 2) if rng.random() < 0.5 else \
            [tuple(float(c) for c in rng.uniform(110, 170) * np.array([1, 0.97, 0.92]) * f)
             for f in (1.0, 0.85)]
        scale = rng.uniform(0.09, 0.15)  # board width
    elif kind == "blanket":
        colours = [tuple(float(c) for c in rng.choice(list(PAINT.values())[1:])),
                   (235.0, 232.0, 225.0)]
        scale = rng.uniform(0.03, 0.12)  # stripe width
    elif kind == "procedural":
        colours = [tuple(float(c) for c in rng.uniform(20, 235, 3))
                   for _ in range(int(rng.integers(2, 5)))]
        scale = float(np.exp(rng.uniform(math.log(0.01), math.log(0.5))))
        pattern = str(rng.choice(["bozo", "granite", "agate", "marble", "spotted", "wrinkles",
                                  "leopard", "crackle", "cells", "dents"]))
    soil_fraction = 0.0
    if kind == "grass" and rng.random() < 0.6:
        soil_fraction = rng.uniform(0.02, 0.4)
    soil_scale = float(np.exp(rng.uniform(math.log(0.04), math.log(0.8))))
    return Surface(kind, colours, float(scale), pattern, soil_fraction, soil_scale,
                   _browns(rng, 3), bool(rng.random() < 0.35))


PATCH_LEVEL = 0.5  # bare soil where patch_field (plus ragged-edge noise) passes this


def sample_patches(rng, surface, anchors):
    """Bare soil and mud on a lawn: blobs of every size, some right beside the dice, where no
    grass grows (the reader once took such brown blobs for dice)."""
    if surface.kind != "grass" or rng.random() < 0.3:
        return
    lo, hi = np.min(anchors, 0) - 0.8, np.max(anchors, 0) + 0.8
    for _ in range(int(rng.integers(1, 10))):
        radius = float(np.exp(rng.uniform(math.log(0.04), math.log(0.5))))
        x, z = rng.uniform(lo, hi)
        surface.patches.append((float(x), float(z), radius, radius * rng.uniform(0.4, 1.0),
                                float(rng.uniform(0, math.pi))))
    surface.patch_noise = float(rng.uniform(0.1, 0.45))


def patch_field(surface, xz):
    """Sum of one Gaussian blob per patch at ground points xz (N x 2); pov_world writes the
    same sum as a POV-Ray function."""
    field = np.zeros(len(xz))
    for x, z, rx, rz, angle in surface.patches:
        dx, dz = xz[:, 0] - x, xz[:, 1] - z
        u = dx * math.cos(angle) + dz * math.sin(angle)
        v = -dx * math.sin(angle) + dz * math.cos(angle)
        field += np.exp(-(u / rx) ** 2 - (v / rz) ** 2)
    return field


def no_grass(extra):
    """The ground points (N x 2 -> mask) where no blade grows: bare patches (a little inside
    their ragged edge) and under flat clutter."""
    circles = [(d.xz[0], d.xz[1], _radius(d) * 0.8) for d in extra.distractors
               if d.kind in ("toy_block", "brick", "cup", "scorecard", "ball", "shoe")]

    def bare(xz):
        mask = patch_field(extra.surface, xz) > PATCH_LEVEL + 0.05 if extra.surface.patches \
            else np.zeros(len(xz), bool)
        for x, z, radius in circles:
            mask |= np.hypot(xz[:, 0] - x, xz[:, 1] - z) < radius
        return mask
    return bare


def sample_distractors(rng, camera, dice, anchors, clutter_only, surface_kind):
    """Clutter on the ground around the dice, never under or inside one. anchors: ground
    points (x, z) where dice are or would be (clutter-only scenes put clutter there). Flowers
    grow only on grass and soil."""
    column = 1 if clutter_only else 0
    kinds = [k for k, spec in DISTRACTORS.items() if rng.random() < spec[column]
             and (k not in ("daisy", "clover_flower") or surface_kind in ("grass", "soil"))]
    if clutter_only and len(kinds) < 3:
        kinds = list(rng.choice(list(DISTRACTORS), 3, replace=False))
    placed = []
    lo, hi = np.min(anchors, 0) - 0.5, np.max(anchors, 0) + 0.5
    spare_anchors = list(anchors) if clutter_only else []
    for kind in kinds:
        if kind == "leaves":
            placed.append(Distractor(kind, np.zeros(2), 0.0, 0.0, (0, 0, 0),
                                     int(rng.integers(*DISTRACTORS[kind][2]))))
            continue
        if kind == "hose":
            hose = _hose(rng, camera, lo, hi)
            if hose is not None:
                placed.append(hose)
            continue
        fewest, most = DISTRACTORS[kind][2]
        for _ in range(int(rng.integers(fewest, most + 1))):
            for _try in range(30):
                if kind == "shoe":
                    xz = _frame_edge_point(rng, camera)
                elif spare_anchors and kind in ("toy_block", "brick", "cup", "ball", "pine_cone",
                                                "bottle_cap") and rng.random() < 0.7:
                    xz = spare_anchors.pop(int(rng.integers(len(spare_anchors))))
                elif rng.random() < 0.6:
                    xz = rng.uniform(lo, hi)
                else:
                    xz = _frame_point(rng, camera)
                if xz is None:
                    continue
                item = _draw(rng, kind, np.asarray(xz, float), dice)
                if _clear(item, dice, placed):
                    placed.append(item)
                    break
    return placed


def _frame_point(rng, camera):
    point = camera.ground_point(rng.uniform(0, camera.width), rng.uniform(0, camera.height))
    return None if point is None else point[[0, 2]]


def _frame_edge_point(rng, camera):
    """A point on the lower part of the frame's edge: a shoe the player did not keep out."""
    edge = rng.integers(3)
    t = rng.uniform(0.1, 0.9)
    w, h = camera.width, camera.height
    px, py = [(t * w, h), (0, h * rng.uniform(0.6, 1)), (w, h * rng.uniform(0.6, 1))][edge]
    point = camera.ground_point(px, py)
    return None if point is None else point[[0, 2]]


def _draw(rng, kind, xz, dice):
    die_edge = 2 * dice[0].half_edge if dice else 0.12
    size = {"toy_block": die_edge * rng.uniform(0.5, 1.1), "brick": 0.215,
            "cup": rng.uniform(0.07, 0.1), "scorecard": rng.uniform(0.14, 0.21),
            "ball": rng.choice([0.033, 0.065, 0.11, 0.2]) * rng.uniform(0.9, 1.1),
            "daisy": rng.uniform(0.012, 0.02), "clover_flower": rng.uniform(0.007, 0.011),
            "pine_cone": rng.uniform(0.05, 0.1), "shoe": rng.uniform(0.25, 0.3),
            "bottle_cap": rng.uniform(0.026, 0.032)}[kind]
    colour = {
        "toy_block": _toy_colour(rng), "brick": tuple(rng.uniform([130, 50, 35], [175, 85, 60])),
        "cup": tuple(rng.uniform(30, 240, 3)) if rng.random() < 0.7 else (236.0, 236.0, 230.0),
        "scorecard": (236.0, 234.0, 226.0), "ball": tuple(rng.uniform(20, 240, 3)),
        "daisy": (245.0, 245.0, 240.0), "clover_flower": (240.0, 236.0, 232.0),
        "pine_cone": tuple(rng.uniform([90, 60, 35], [130, 90, 55])),
        "shoe": tuple(rng.uniform(20, 230, 3)),
        "bottle_cap": tuple(rng.uniform(40, 230, 3)),
    }[kind]
    return Distractor(kind, xz, float(rng.uniform(0, 360)), float(size),
                      tuple(float(c) for c in colour), int(rng.integers(4)))


def _toy_colour(rng):
    """A blank block as a die would be: wood or paint."""
    if rng.random() < 0.4:
        return (222.0, 190.0, 140.0)
    return tuple(float(c) for c in PAINT[str(rng.choice(list(PAINT)))])


def _radius(item):
    return FOOTPRINT_M.get(item.kind, 0.0) * max(item.size / 0.1, 0.6) \
        if item.kind in ("toy_block", "ball", "pine_cone") else FOOTPRINT_M.get(item.kind, 0.0)


def _clear(item, dice, placed):
    r = _radius(item)
    for die in dice:
        if np.linalg.norm(item.xz - die.center[[0, 2]]) < r + die.half_edge * 1.5 + 0.01:
            return False
    for other in placed:
        if other.kind in ("leaves", "hose"):
            continue
        if np.linalg.norm(item.xz - other.xz) < r + _radius(other):
            return False
    return True


def _hose(rng, camera, lo, hi):
    """A garden hose across the lawn: a smooth random path a few metres long."""
    start = _frame_point(rng, camera)
    if start is None:
        return None
    heading = rng.uniform(0, 2 * math.pi)
    points = [np.asarray(start, float)]
    for _ in range(14):
        heading += rng.uniform(-0.5, 0.5)
        points.append(points[-1] + 0.2 * np.array([math.cos(heading), math.sin(heading)]))
    colour = tuple(float(c) for c in rng.choice([(40, 120, 50), (30, 90, 40), (200, 160, 30),
                                                 (50, 60, 140), (150, 40, 30)]))
    return Distractor("hose", points[0], 0.0, rng.uniform(0.008, 0.012), colour, 0,
                      np.array(points))

