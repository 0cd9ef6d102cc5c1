"""Rotations, die resting poses and the pinhole camera shared by the scene and truth code.

Coordinates are POV-Ray's: x east, y up, z north, metres. POV-Ray is left-handed, but every
rotation here is a proper rotation (det +1) applied to numbers, so the maths is the usual one.
"""
import math

import numpy as np

UP = np.array([0.0, 1.0, 0.0])

# Which local axis carries which value. Opposite faces sum to 7; 1-2-3 meet at the (+x,+y,+z)
# corner, the same arrangement on every die. In POV-Ray's left-handed frame this should put
# 1-2-3 counter-clockwise round that corner, as on Western dice (reasoned, not yet checked by eye).
FACE_NORMALS = {
    1: (0, 1, 0), 6: (0, -1, 0),
    2: (1, 0, 0), 5: (-1, 0, 0),
    3: (0, 0, 1), 4: (0, 0, -1),
}

# Rotation bringing each face's normal to +y (column-vector convention: p' = M @ p).
_FACE_TO_TOP = {
    1: np.eye(3),
    6: np.array([[1, 0, 0], [0, -1, 0], [0, 0, -1]]),
    2: np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]]),
    5: np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 1]]),
    3: np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]]),
    4: np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]]),
}


def face_to_top(value):
    return _FACE_TO_TOP[value].astype(float)


def yaw_matrix(yaw_deg):
    a = math.radians(yaw_deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def axis_angle_matrix(axis, angle_deg):
    """Rodrigues' formula: rotation by angle_deg about the unit vector axis."""
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    a = math.radians(angle_deg)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(a) * kx + (1 - math.cos(a)) * kx @ kx


def pov_matrix(rotation, translation):
    """POV-Ray's matrix keyword uses row vectors (p' = p M), so it takes the transpose."""
    m = list(np.asarray(rotation).T.reshape(-1)) + list(translation)
    return "matrix <" + ",".join(f"{v:.6f}" for v in m) + ">"


def rounded_cube_lowest_point(rotation, half_edge, edge_radius):
    """Lowest y of a rounded cube centred at the origin after rotation: a corner sphere's."""
    inner = half_edge - edge_radius
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    return float((corners * inner @ rotation.T)[:, 1].min()) - edge_radius


def footprint(center_xz, half_edge, yaw_deg):
    """The 4 ground corners of a die's square footprint (x, z), for overlap tests."""
    rot = yaw_matrix(yaw_deg)
    local = np.array([[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1]]) * half_edge
    world = local @ rot.T
    return world[:, [0, 2]] + np.asarray(center_xz)


def squares_overlap(a, b, margin):
    """Separating-axis test for two convex quads (4x2 arrays), grown by margin metres."""
    for quad in (a, b):
        for i in range(4):
            edge = quad[(i + 1) % 4] - quad[i]
            axis = np.array([-edge[1], edge[0]]) / np.linalg.norm(edge)
            pa, pb = a @ axis, b @ axis
            if pa.max() + margin < pb.min() or pb.max() + margin < pa.min():
                return False
    return True


class Camera:
    """A pinhole camera described exactly as the POV-Ray camera block it writes.

    yaw_deg is the compass heading of the view, elevation_deg how far below horizontal it
    looks; fov_long_deg spans the image's long side, which is horizontal when landscape.
    """

    def __init__(self, position, yaw_deg, elevation_deg, fov_long_deg, width, height):
        self.position = np.asarray(position, float)
        self.width, self.height = width, height
        yaw, elev = math.radians(yaw_deg), math.radians(elevation_deg)
        heading = np.array([math.sin(yaw), 0.0, math.cos(yaw)])
        self.forward = heading * math.cos(elev) - UP * math.sin(elev)
        # Built from the heading, not a cross product with UP, so top-down views stay defined.
        self.right_unit = np.array([math.cos(yaw), 0.0, -math.sin(yaw)])
        self.up_unit = np.cross(self.forward, self.right_unit)
        half_long = math.tan(math.radians(fov_long_deg) / 2)
        half_short = half_long * min(width, height) / max(width, height)
        half_w, half_h = (half_long, half_short) if width >= height else (half_short, half_long)
        self.right = self.right_unit * 2 * half_w
        self.up = self.up_unit * 2 * half_h

    def pov(self):
        def vec(v):
            # Full precision: POV-Ray warns on camera vectors off perpendicular by 1e-7.
            return "<" + ",".join(repr(float(c)) for c in v) + ">"

        return (f"camera {{ perspective location {vec(self.position)} "
                f"direction {vec(self.forward)} right {vec(self.right)} up {vec(self.up)} }}")

    def project(self, points):
        """World points (N x 3) to pixel coordinates (N x 2) and depth along the view."""
        rel = np.atleast_2d(points) - self.position
        depth = rel @ self.forward
        u = (rel @ self.right) / (depth * (self.right @ self.right))
        v = (rel @ self.up) / (depth * (self.up @ self.up))
        px = np.stack([(u + 0.5) * self.width, (0.5 - v) * self.height], axis=1)
        return px, depth

    def ground_point(self, px, py):
        """Where the ray through pixel (px, py) meets the ground plane y = 0, or None."""
        u = px / self.width - 0.5
        v = 0.5 - py / self.height
        ray = self.forward + u * self.right + v * self.up
        if ray[1] >= -1e-6:
            return None
        t = -self.position[1] / ray[1]
        return self.position + t * ray
