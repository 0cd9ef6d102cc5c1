"""Sample one lawn scene (dice, camera, light, ground, photo quirks) from a seed.

Everything random in a scene is drawn here, from one numpy Generator seeded by the scene's
seed, so the scene description depends on nothing else. Nothing here knows POV-Ray.
"""
import dataclasses
import math

import numpy as np

from . import geometry, world as worlds

MATERIALS = ("natural_wood", "dark_wood", "white", "red", "blue")
MATERIAL_WEIGHTS = (0.35, 0.15, 0.2, 0.15, 0.15)
GLOSS_MATERIALS = ("white", "red", "blue")  # painted: a tight highlight, unlike varnished wood
EDGE_ROUNDING = 0.08  # edge radius as a fraction of the edge: yard dice are sanded round
SINK_INTO_GRASS_M = (0.002, 0.008)
FRAME_MARGIN_PX = 0.03  # fraction of the long side kept free around dice that must be whole


@dataclasses.dataclass
class Die:
    value: int  # the top face
    half_edge: float  # metres
    yaw_deg: float
    rotation: np.ndarray  # full rotation, local die frame -> world
    rest_rotation: np.ndarray  # yaw and tilt only: the frame where the top face is +y
    center: np.ndarray  # world position of the cube centre
    wood_seed: int  # places the grain so no two dice look cut from the same spot
    rounding: float = EDGE_ROUNDING  # edge radius as a fraction of the edge

    @property
    def edge_radius(self):
        return 2 * self.half_edge * self.rounding


@dataclasses.dataclass
class Light:
    kind: str  # sun | overcast | evening; with --world also dappled (sun through a tree)
    elevation_deg: float  # of the sun or, when overcast, of the bright part of the sky
    azimuth_deg: float

    def direction(self):
        """Unit vector from the scene towards the sun (or the bright sky), y up."""
        e, a = math.radians(self.elevation_deg), math.radians(self.azimuth_deg)
        return np.array([math.sin(a) * math.cos(e), math.sin(e), math.cos(a) * math.cos(e)])


@dataclasses.dataclass
class Ground:
    palette: str  # lush | dry | autumn
    soil_fraction: float
    n_leaves: int
    n_clover_patches: int
    pattern_offset: tuple  # shifts the procedural textures so no two lawns repeat


@dataclasses.dataclass
class Photo:
    """What the phone does after the optics: exposure, tint, noise, vignetting, EXIF."""
    exposure: float
    tint: tuple  # per-channel gain, BGR
    noise_sigma: float
    blur_sigma: float  # pixels: lens softness and demosaicing
    vignette: float
    orientation: int  # EXIF Orientation 1-8
    write_exif: bool  # orientation 1 photos sometimes carry no EXIF at all
    exif_big_endian: bool  # iPhones write "MM", most Android phones "II"
    jpeg_quality: int


@dataclasses.dataclass
class Scene:
    seed: int
    material: str
    pip_colour: str  # black | white
    pip_style: str  # drilled | painted
    dice: list
    camera: geometry.Camera
    camera_height_m: float
    camera_elevation_deg: float
    light: Light
    ground: Ground
    photo: Photo
    touching: bool
    occluded: bool
    cut_off: bool
    close_up: bool = False  # the camera held low, close to the dice (sample_scene's close_up)
    world: worlds.World = None  # what --world adds (sample_scene's world), else None
    fov_deg: float = None  # --world only: the lens's field of view on the long side
    layout_dice: list = None  # --world only: where the dice are, or would be (clutter-only)

    @property
    def gloss(self):
        if self.world is not None:
            return self.world.finish.gloss and self.world.finish.material not in worlds.WOODS
        return self.material in GLOSS_MATERIALS

    @property
    def die_size_cm(self):
        return 200 * self.dice[0].half_edge if self.dice else 0.0

    def sun_glare_deg(self):
        """How near the camera sees the sun mirrored in a top face: the smallest angle over the
        dice between the sun's mirror ray off a level face and the ray to the camera. None
        unless the sun shines on gloss paint. Under ~10 degrees a phone sees the top face
        (partly) blown white, as on a real glossy die shot towards the sun."""
        if self.light.kind != "sun" or not self.gloss:
            return None
        mirror = self.light.direction() * np.array([-1.0, 1.0, -1.0])
        angles = []
        for die in self.dice:
            to_camera = self.camera.position - die.center
            cosine = mirror @ to_camera / np.linalg.norm(to_camera)
            angles.append(math.degrees(math.acos(min(1.0, max(-1.0, cosine)))))
        return min(angles)


def scene_seed(batch_seed, index):
    """The seed of scene index in a batch; scenes.csv records it so one scene can be redone."""
    return int(np.random.SeedSequence([batch_seed, index]).generate_state(1)[0])


# Camera heights (m): a standing player, or one crouching close to the dice (close_up), whose
# photo shows them two or three times larger.
CAMERA_HEIGHT_M = (1.2, 1.8)
CLOSE_UP_CAMERA_HEIGHT_M = (0.5, 0.8)


def sample_scene(seed, width_long, landscape_only=False, close_up=False, world=False,
                 clutter_only=False, marbled=0.0):
    """Draw a whole scene; landscape_only turns a portrait draw (the bench wants 4000x3000);
    close_up holds the camera low. Neither changes any other draw of the scene.
    world (tools/render/world.py) draws the dice, ground, light, camera and phone from the wider
    world and adds clutter; clutter_only (with world) then takes the dice away, leaving clutter
    where they were; marbled (with world) gives that share of painted dice veins
    (world.marble_sometimes). A scene drawn without world is the same as before world existed."""
    if world:
        return _sample_world_scene(seed, width_long, landscape_only, close_up, clutter_only,
                                   marbled)
    rng = np.random.default_rng(seed)
    n_dice = int(rng.choice([4, 5, 6], p=[0.1, 0.8, 0.1]))
    material = str(rng.choice(MATERIALS, p=MATERIAL_WEIGHTS))
    pip_colour = _pip_colour(rng, material)
    pip_style = "drilled" if rng.random() < (0.7 if "wood" in material else 0.3) else "painted"
    half_edge = round(rng.uniform(9.0, 15.0), 1) / 200
    camera, cam_height, cam_elev = _sample_camera(rng, width_long, landscape_only, close_up)
    light = _sample_light(rng)
    ground = _sample_ground(rng)
    photo = _sample_photo(rng)
    wants_touching = rng.random() < 0.35
    wants_occluded = cam_elev < 60 and rng.random() < 0.3
    wants_cut_off = rng.random() < 0.06
    dice, touching, occluded = _place_dice(rng, camera, n_dice, half_edge,
                                           wants_touching, wants_occluded, wants_cut_off)
    return Scene(seed=seed, material=material, pip_colour=pip_colour, pip_style=pip_style,
                 dice=dice, camera=camera, camera_height_m=cam_height,
                 camera_elevation_deg=cam_elev, light=light, ground=ground, photo=photo,
                 touching=touching, occluded=occluded, cut_off=wants_cut_off, close_up=close_up)


def _sample_world_scene(seed, width_long, landscape_only, close_up, clutter_only, marbled):
    """sample_scene's world draw: its own stream (no draw is shared with a plain scene)."""
    rng = np.random.default_rng([seed, 24])
    n_dice = int(rng.choice([4, 5, 6], p=[0.1, 0.8, 0.1]))
    finish = worlds.sample_finish(rng)
    # Yard dice 9-15 cm; foam and wooden sets also come smaller.
    half_edge = round(rng.uniform(6.0 if finish.material in ("foam",) + worlds.WOODS else 9.0,
                                  15.0), 1) / 200
    camera, cam_height, cam_elev, fov = _sample_world_camera(rng, width_long, landscape_only,
                                                              close_up)
    light = _sample_world_light(rng)
    surface = worlds.sample_surface(rng)
    palette = str(rng.choice(["lush", "dry", "autumn"], p=[0.55, 0.25, 0.2]))
    clover = int(rng.integers(1, 4)) if surface.kind == "grass" and rng.random() < 0.35 else 0
    ground = Ground(palette, surface.soil_fraction, 0, clover, tuple(rng.uniform(-50, 50, 3)))
    photo = _sample_photo(rng, world=True)
    wants_touching = rng.random() < 0.35
    wants_occluded = cam_elev < 60 and rng.random() < 0.3
    wants_cut_off = rng.random() < 0.06
    sink = SINK_INTO_GRASS_M if surface.kind in ("grass", "soil", "sand") else (0.0005, 0.0015)
    dice, touching, occluded = _place_dice(rng, camera, n_dice, half_edge, wants_touching,
                                           wants_occluded, wants_cut_off,
                                           rounding=finish.rounding, sink=sink)
    anchors = np.array([d.center[[0, 2]] for d in dice])
    layout = dice
    if clutter_only:
        dice, touching, occluded, wants_cut_off = [], False, False, False
    distractors = worlds.sample_distractors(rng, camera, dice, anchors, clutter_only,
                                            surface.kind)
    worlds.sample_patches(rng, surface, anchors)
    canopy = rng.uniform(0.35, 0.65) if light.kind == "dappled" else 0.0
    blur = rng.uniform(1.5, 7.0) if rng.random() < 0.25 else 0.0
    finish = worlds.marble_sometimes(seed, finish, marbled)
    extra = worlds.World(finish, surface, distractors, canopy, float(rng.uniform(0.15, 0.6)),
                         tuple(rng.uniform(-50, 50, 3)), blur, float(rng.uniform(0, 180)),
                         clutter_only)
    scene = Scene(seed=seed, material=finish.material, pip_colour=finish.pip_colour,
                  pip_style=finish.pip_style, dice=dice, camera=camera,
                  camera_height_m=cam_height, camera_elevation_deg=cam_elev, light=light,
                  ground=ground, photo=photo, touching=touching, occluded=occluded,
                  cut_off=wants_cut_off, close_up=close_up, world=extra, fov_deg=fov)
    scene.layout_dice = layout
    return scene


def _sample_world_camera(rng, width_long, landscape_only, close_up):
    """Standing or crouching (close_up: crouching only), top-down to 30 degrees, a main lens
    or a 2x one (a narrow view is what lets a 30 degree shot keep the horizon out)."""
    height = rng.uniform(*(CLOSE_UP_CAMERA_HEIGHT_M if close_up else (0.5, 1.8)))
    top_down = rng.random() < 0.2
    elevation = rng.uniform(85, 90) if top_down else rng.uniform(30, 80)
    fov_long = rng.uniform(65, 75) if rng.random() < 0.7 else rng.uniform(40, 55)
    portrait = rng.random() < 0.4 and not landscape_only
    width_short = int(round(width_long * 3 / 4))
    width, img_height = (width_short, width_long) if portrait else (width_long, width_short)
    half_vertical = math.degrees(math.atan(math.tan(math.radians(fov_long) / 2)
                                           * img_height / width_long))
    elevation = max(elevation, half_vertical + 8)
    camera = geometry.Camera((0.0, height, 0.0), rng.uniform(0, 360), elevation, fov_long,
                             width, img_height)
    return camera, height, elevation, fov_long


def _sample_world_light(rng):
    kind = str(rng.choice(["sun", "overcast", "evening", "dappled"], p=[0.35, 0.25, 0.15, 0.25]))
    elevation = {"sun": rng.uniform(15, 80), "overcast": rng.uniform(50, 80),
                 "evening": rng.uniform(6, 16), "dappled": rng.uniform(20, 75)}[kind]
    return Light(kind, elevation, rng.uniform(0, 360))


def _pip_colour(rng, material):
    # Pips must contrast with the body; red sets come with either colour.
    if material in ("natural_wood", "white"):
        return "black"
    if material == "red":
        return "white" if rng.random() < 0.6 else "black"
    return "white"


def _sample_camera(rng, width_long, landscape_only, close_up):
    height = rng.uniform(*(CLOSE_UP_CAMERA_HEIGHT_M if close_up else CAMERA_HEIGHT_M))
    top_down = rng.random() < 0.2
    elevation = rng.uniform(85, 90) if top_down else rng.uniform(35, 80)
    fov_long = rng.uniform(65, 75)
    portrait = rng.random() < 0.4 and not landscape_only  # one draw either way: same stream
    width_short = int(round(width_long * 3 / 4))
    width, img_height = (width_short, width_long) if portrait else (width_long, width_short)
    # Keep the horizon out of the picture: nobody frames dice with a strip of sky.
    half_vertical = math.degrees(math.atan(math.tan(math.radians(fov_long) / 2)
                                           * img_height / width_long))
    elevation = max(elevation, half_vertical + 8)
    camera = geometry.Camera((0.0, height, 0.0), rng.uniform(0, 360), elevation, fov_long,
                             width, img_height)
    return camera, height, elevation


def _sample_light(rng):
    kind = str(rng.choice(["sun", "overcast", "evening"], p=[0.55, 0.3, 0.15]))
    elevation = {"sun": rng.uniform(15, 80), "overcast": rng.uniform(50, 80),
                 "evening": rng.uniform(8, 16)}[kind]
    return Light(kind, elevation, rng.uniform(0, 360))


def _sample_ground(rng):
    palette = str(rng.choice(["lush", "dry", "autumn"], p=[0.55, 0.25, 0.2]))
    soil = rng.uniform(0.02, 0.07) if rng.random() < 0.2 else 0.0
    leaves = int(rng.integers(8, 45)) if (palette == "autumn" or rng.random() < 0.25) else 0
    clover = int(rng.integers(1, 4)) if rng.random() < 0.35 else 0
    return Ground(palette, soil, leaves, clover, tuple(rng.uniform(-50, 50, 3)))


# The phone's imperfections: a plain scene's (a phone like the one samples/lawn was drawn for)
# and --world's, wider in every way and of any JPEG quality 60-95. Both draw in the same order.
PHOTO_RANGES = {
    False: {"exposure": (0.85, 1.15), "tint": (0.95, 1.05), "noise": (1.0, 3.0),
            "blur": (0.5, 0.8), "vignette": (0.0, 0.35), "jpeg_quality": None},
    True: {"exposure": (0.7, 1.3), "tint": (0.85, 1.15), "noise": (1.0, 6.0),
           "blur": (0.5, 1.2), "vignette": (0.0, 0.4), "jpeg_quality": (60, 96)},
}


def _sample_photo(rng, world=False):
    r = PHOTO_RANGES[world]
    orientation = int(rng.integers(2, 9)) if rng.random() < 0.25 else 1
    return Photo(exposure=rng.uniform(*r["exposure"]),
                 tint=tuple(rng.uniform(*r["tint"], 3)),
                 noise_sigma=rng.uniform(*r["noise"]),
                 blur_sigma=rng.uniform(*r["blur"]),
                 vignette=rng.uniform(*r["vignette"]),
                 orientation=orientation,
                 write_exif=orientation != 1 or rng.random() < 0.5,
                 exif_big_endian=bool(rng.random() < 0.5),
                 jpeg_quality=int(rng.integers(*r["jpeg_quality"])) if world else 85)


def _make_die(rng, value, half_edge, center_xz, yaw_deg, max_tilt_deg,
              rounding=EDGE_ROUNDING, sink=SINK_INTO_GRASS_M):
    tilt_axis = geometry.yaw_matrix(rng.uniform(0, 360)) @ np.array([1.0, 0, 0])
    rest = geometry.axis_angle_matrix(tilt_axis, rng.uniform(0, max_tilt_deg)) \
        @ geometry.yaw_matrix(yaw_deg)
    rotation = rest @ geometry.face_to_top(value)
    edge_radius = 2 * half_edge * rounding
    lowest = geometry.rounded_cube_lowest_point(rotation, half_edge, edge_radius)
    center_y = -lowest - rng.uniform(*sink)
    center = np.array([center_xz[0], center_y, center_xz[1]])
    return Die(value, half_edge, yaw_deg, rotation, rest, center, int(rng.integers(1 << 30)),
               rounding)


def die_corners(die):
    """The 8 corners of the die's bounding cube in world space (for framing checks)."""
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    return signs * die.half_edge @ die.rotation.T + die.center


def _in_frame(camera, die, margin_px):
    px, depth = camera.project(die_corners(die))
    return (depth > 0).all() and (px[:, 0] >= margin_px).all() \
        and (px[:, 0] <= camera.width - margin_px).all() \
        and (px[:, 1] >= margin_px).all() and (px[:, 1] <= camera.height - margin_px).all()


def _collides(die, others, margin=0.004):
    mine = geometry.footprint(die.center[[0, 2]], die.half_edge * 1.02, die.yaw_deg)
    return any(geometry.squares_overlap(
        mine, geometry.footprint(o.center[[0, 2]], o.half_edge * 1.02, o.yaw_deg), margin)
        for o in others)


def _position_near(rng, kind, camera, placed, half_edge, cluster_center, cluster_radius):
    """A candidate (centre_xz, yaw) for the next die, following the wanted arrangement."""
    if kind == "touching":
        # Face to face with the first die, slid sideways a little, as dice come to rest.
        partner = placed[0]
        side = rng.integers(4)
        yaw = partner.yaw_deg + rng.uniform(-4, 4)
        heading = geometry.yaw_matrix(partner.yaw_deg + 90 * side) @ np.array([1.0, 0, 0])
        lateral = geometry.yaw_matrix(partner.yaw_deg + 90 * side) @ np.array([0, 0, 1.0])
        offset = heading * (partner.half_edge + half_edge + 0.002) \
            + lateral * rng.uniform(-0.5, 0.5) * half_edge
        return partner.center[[0, 2]] + offset[[0, 2]], yaw
    if kind == "occluded":
        # Right behind an earlier die as the camera sees it, so its near side is hidden.
        front = placed[int(rng.integers(len(placed)))]
        away = front.center[[0, 2]] - camera.position[[0, 2]]
        away /= np.linalg.norm(away)
        sideways = np.array([-away[1], away[0]])
        distance = (front.half_edge + half_edge) * rng.uniform(1.05, 1.5)
        xz = front.center[[0, 2]] + away * distance + sideways * rng.uniform(-0.4, 0.4) * half_edge
        return xz, rng.uniform(0, 90)
    if kind == "cut_off":
        # Straddling a random frame edge: part of the die is outside the picture.
        edge = rng.integers(4)
        t = rng.uniform(0.2, 0.8)
        w, h = camera.width, camera.height
        px, py = [(t * w, 0), (t * w, h), (0, t * h), (w, t * h)][edge]
        point = camera.ground_point(px, py)
        return point[[0, 2]], rng.uniform(0, 90)
    r = cluster_radius * math.sqrt(rng.random())
    a = rng.uniform(0, 2 * math.pi)
    return cluster_center + r * np.array([math.cos(a), math.sin(a)]), rng.uniform(0, 90)


def _place_dice(rng, camera, n_dice, half_edge, wants_touching, wants_occluded, wants_cut_off,
                rounding=EDGE_ROUNDING, sink=SINK_INTO_GRASS_M):
    """Scatter the dice as after a roll, framed by the camera; retries shrink the cluster."""
    margin_px = FRAME_MARGIN_PX * max(camera.width, camera.height)
    kinds = ["free"] * n_dice
    if wants_touching:
        kinds[1] = "touching"
    if wants_occluded:
        kinds[2] = "occluded"
    if wants_cut_off:
        kinds[-1] = "cut_off"
    # Room for all dice side by side, however the cluster radius is drawn.
    min_radius = math.sqrt(n_dice) * half_edge * 2.2
    for attempt in range(50):
        aim = camera.ground_point(camera.width * rng.uniform(0.4, 0.6),
                                  camera.height * rng.uniform(0.4, 0.6))
        cluster_radius = max(rng.uniform(0.25, 0.6) * 0.97 ** attempt, min_radius)
        placed = []
        for kind in kinds:
            die = None
            for _ in range(60):
                xz, yaw = _position_near(rng, kind, camera, placed, half_edge,
                                         aim[[0, 2]], cluster_radius)
                max_tilt = 1.5 if kind == "touching" else 4.0
                candidate = _make_die(rng, int(rng.integers(1, 7)), half_edge, xz, yaw, max_tilt,
                                      rounding, sink)
                others = placed[1:] if kind == "touching" else placed
                framed = kind == "cut_off" or _in_frame(camera, candidate, margin_px)
                if framed and not _collides(candidate, others):
                    die = candidate
                    break
            if die is None:
                break
            placed.append(die)
        if len(placed) == n_dice:
            return placed, wants_touching, wants_occluded
    raise RuntimeError("could not place the dice; the camera sees too little ground")
