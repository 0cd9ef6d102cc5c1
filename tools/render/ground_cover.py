"""Grass blades, fallen leaves and clover as POV-Ray mesh2 objects.

Items of one kind share a triangle template; each item has a colour index. Blades are cut
into square tiles, one mesh2 each, so a ray only walks the few tiles it passes (one mesh over
the whole lawn made every ray test all of it). Faces pick their colour from a texture_list
naming <Kind>Tex<i>: the photo pass declares those as real textures, the mask pass as black,
and both include the same mesh files, so the mask sees exactly the occluders the photo shows.
"""
import dataclasses
import math

import numpy as np

BLADE_DENSITY_PER_M2 = 22000  # real lawns have ten times more; at ~2 mm a pixel this reads alike
BLADE_BEYOND_DICE_M = 0.3  # full density up to this much farther from the camera than any die...
BLADE_FADE_M = 0.8  # ...then fading out over this distance, where the lawn texture takes over
BLADE_TILE_M = 0.25
COLOURS = {"Blade": 6, "Leaf": 4, "Clover": 2}  # texture_list sizes, one per kind


@dataclasses.dataclass
class Items:
    kind: str  # Blade | Leaf | Clover
    vertices: np.ndarray  # (n_items, vertices per item, 3)
    template: np.ndarray  # (triangles per item, 3) indices into an item's vertices
    colour: np.ndarray  # (n_items,) index into the kind's textures

    def subset(self, keep):
        return Items(self.kind, self.vertices[keep], self.template, self.colour[keep])

    def roots_xz(self):
        return self.vertices[:, 0, [0, 2]]


def _outside_dice(points_xz, dice, grow):
    """Mask of points that are not under any die (so nothing pokes through a die)."""
    keep = np.ones(len(points_xz), bool)
    for die in dice:
        rel = points_xz - die.center[[0, 2]]
        a = math.radians(die.yaw_deg)
        # Local footprint coordinates: undo the yaw (see geometry.yaw_matrix).
        lx = rel[:, 0] * math.cos(a) - rel[:, 1] * math.sin(a)
        lz = rel[:, 0] * math.sin(a) + rel[:, 1] * math.cos(a)
        inside = (np.abs(lx) < die.half_edge + grow) & (np.abs(lz) < die.half_edge + grow)
        keep &= ~inside
    return keep


def distance_to_dice(points_xz, dice):
    if not dice:
        return np.full(len(points_xz), np.inf)
    return np.min([np.linalg.norm(points_xz - d.center[[0, 2]], axis=1) - d.half_edge * 1.2
                   for d in dice], axis=0)


def _cluster_box(dice, margin):
    xz = np.array([d.center[[0, 2]] for d in dice])
    return xz.min(0) - margin, xz.max(0) + margin


def blades(rng, dice, camera, height_range, extent=None, bare=None):
    """Grass blades on the ground the camera sees.

    One tapering triangle per blade: at phone resolution a blade is 1-3 pixels wide, so
    curvature is not worth its cost. Far from the camera, where a pixel holds many blades,
    they thin out and the ground texture stands in for them. extent: the dice (or places) the
    full-density lawn reaches past, if not dice; bare: a function of ground points (N x 2)
    saying where no grass grows (bare soil, under clutter).
    """
    eye = camera.position
    full = max(np.linalg.norm(d.center - eye) for d in (extent or dice)) + BLADE_BEYOND_DICE_M
    reach = math.sqrt(max((full + BLADE_FADE_M) ** 2 - eye[1] ** 2, 0.01))
    lo, hi = eye[[0, 2]] - reach, eye[[0, 2]] + reach
    n = int(BLADE_DENSITY_PER_M2 * np.prod(hi - lo))
    base = rng.uniform(lo, hi, (n, 2))
    ground = np.stack([base[:, 0], np.zeros(n), base[:, 1]], 1)
    px, depth = camera.project(ground)
    slack = 0.03 * max(camera.width, camera.height)
    seen = (depth > 0) & (px[:, 0] > -slack) & (px[:, 0] < camera.width + slack) \
        & (px[:, 1] > -slack) & (px[:, 1] < camera.height + slack)
    distance = np.linalg.norm(ground - eye, axis=1)
    keep_prob = np.clip(1 - (distance - full) / BLADE_FADE_M, 0, 1)
    keep = seen & (rng.random(n) < keep_prob) & _outside_dice(base, dice, 0.002)
    if bare is not None:
        keep &= ~bare(base)
    base = base[keep]
    n = len(base)
    height = rng.uniform(*height_range, n)
    width = rng.uniform(0.003, 0.006, n)
    lean = np.radians(rng.uniform(5, 50, n))
    lean_dir = rng.uniform(0, 2 * math.pi, n)
    twist = lean_dir + math.pi / 2 + rng.uniform(-0.6, 0.6, n)
    across = np.stack([np.cos(twist), np.zeros(n), np.sin(twist)], 1) * width[:, None] / 2
    root = np.stack([base[:, 0], np.full(n, -0.003), base[:, 1]], 1)
    tip = root + np.stack([np.cos(lean_dir) * np.sin(lean), np.cos(lean),
                           np.sin(lean_dir) * np.sin(lean)], 1) * height[:, None]
    verts = np.stack([root - across, root + across, tip], 1)
    return Items("Blade", verts, np.array([[0, 1, 2]]), rng.integers(COLOURS["Blade"], size=n))


def _disc_fan(n_segments, center, radius_x, radius_z, heading, lift_center):
    """Flat elliptic shapes (leaves, leaflets) as triangle fans, lying near the ground."""
    angles = np.linspace(0, 2 * math.pi, n_segments, endpoint=False)
    rx = radius_x[:, None] * np.cos(angles)[None]
    rz = radius_z[:, None] * np.sin(angles)[None]
    c, s = np.cos(heading)[:, None], np.sin(heading)[:, None]
    ring = np.stack([center[:, 0:1] + rx * c - rz * s, np.repeat(center[:, 1:2], n_segments, 1),
                     center[:, 2:3] + rx * s + rz * c], 2)
    mid = center + np.array([0, 1, 0]) * lift_center[:, None]
    verts = np.concatenate([mid[:, None, :], ring], 1)
    tris = np.array([[0, 1 + i, 1 + (i + 1) % n_segments] for i in range(n_segments)])
    return verts, tris


def leaves(rng, dice, count, extent=None):
    lo, hi = _cluster_box(extent or dice, 0.45)
    xz = rng.uniform(lo, hi, (count * 3, 2))
    xz = xz[_outside_dice(xz, dice, 0.03)][:count]
    n = len(xz)
    center = np.stack([xz[:, 0], rng.uniform(0.004, 0.012, n), xz[:, 1]], 1)
    length = rng.uniform(0.025, 0.045, n)
    verts, tris = _disc_fan(10, center, length, length * rng.uniform(0.35, 0.6, n),
                            rng.uniform(0, 2 * math.pi, n), rng.uniform(0.002, 0.008, n))
    return Items("Leaf", verts, tris, rng.integers(COLOURS["Leaf"], size=n))


def clover(rng, dice, n_patches, extent=None):
    """Patches of trefoils: three small round leaflets on a stem a few cm high."""
    lo, hi = _cluster_box(extent or dice, 0.3)
    parts = [np.zeros((0, 2))]
    for _ in range(n_patches):
        patch_center = rng.uniform(lo, hi)
        patch_radius = rng.uniform(0.08, 0.25)
        n = int(9000 * patch_radius ** 2)
        r = patch_radius * np.sqrt(rng.random(n))
        a = rng.uniform(0, 2 * math.pi, n)
        stems = patch_center + np.stack([r * np.cos(a), r * np.sin(a)], 1)
        parts.append(stems[_outside_dice(stems, dice, 0.004)])
    stems = np.concatenate(parts)
    n = len(stems)
    top = np.stack([stems[:, 0], rng.uniform(0.01, 0.04, n), stems[:, 1]], 1)
    size = rng.uniform(0.004, 0.007, n)
    spin = rng.uniform(0, 2 * math.pi, n)
    angles = np.concatenate([spin + k * 2 * math.pi / 3 for k in range(3)])
    sizes = np.tile(size, 3)
    centers = np.tile(top, (3, 1)) + np.stack([np.cos(angles), np.zeros(3 * n), np.sin(angles)],
                                              1) * sizes[:, None]
    verts, tris = _disc_fan(6, centers, sizes, sizes * 0.85, angles, np.full(3 * n, 0.0015))
    return Items("Clover", verts, tris, np.tile(rng.integers(COLOURS["Clover"], size=n), 3))


def _mesh2(name, items):
    n_items, per_item, _ = items.vertices.shape
    faces = (np.arange(n_items)[:, None, None] * per_item + items.template[None]).reshape(-1, 3)
    face_colour = np.repeat(items.colour, len(items.template))
    verts = ",".join("<%.4f,%.4f,%.4f>" % tuple(v) for v in items.vertices.reshape(-1, 3).tolist())
    tris = ",".join("<%d,%d,%d>,%d" % (a, b, c, t)
                    for (a, b, c), t in zip(faces.tolist(), face_colour.tolist()))
    textures = ",".join(f"texture {{ {items.kind}Tex{i} }}" for i in range(COLOURS[items.kind]))
    return (f"#declare {name} = mesh2 {{ vertex_vectors {{ {n_items * per_item}, {verts} }} "
            f"texture_list {{ {COLOURS[items.kind]}, {textures} }} "
            f"face_indices {{ {len(faces)}, {tris} }} }}\n")


def _tiles(items, tile_m):
    """Split items into square ground tiles by root position."""
    cells = np.floor(items.roots_xz() / tile_m).astype(int)
    keys, which = np.unique(cells, axis=0, return_inverse=True)
    return [items.subset(which.reshape(-1) == k) for k in range(len(keys))]


def include_text(prefix, items_list, tile_m=BLADE_TILE_M):
    """#declare every non-empty mesh as <prefix><Kind>Mesh<n>; returns the text and
    [(name, kind)] declared. Different files need different prefixes."""
    text, names = [], []
    for items in items_list:
        for tile in _tiles(items, tile_m) if len(items.colour) else []:
            name = f"{prefix}{items.kind}Mesh{len(names)}"
            text.append(_mesh2(name, tile))
            names.append((name, items.kind))
    return "".join(text), names
