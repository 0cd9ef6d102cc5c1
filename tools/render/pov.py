"""POV-Ray scene text for a sampled Scene: the photo pass and the flat-colour mask pass.

Colours are written as sRGB in the source (as a person would pick them) and converted to the
linear values POV-Ray expects with assumed_gamma 1.0; the rendered PNG is sRGB again.
"""
import math

import numpy as np

from . import geometry, ground_cover, pov_world

# Pip centres in units of the pip spacing, on a face's (u, v) axes: the six real layouts.
PIP_LAYOUTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
PIP_SPACING = 0.27  # fraction of the edge between the centre and a corner pip
PIP_RADIUS = 0.085  # fraction of the edge

GRASS_PALETTES = {  # dark, mid, light, straw (sRGB)
    "lush": ((38, 60, 20), (70, 104, 34), (108, 140, 52), (140, 150, 72)),
    "dry": ((62, 66, 28), (108, 110, 52), (150, 140, 82), (170, 150, 95)),
    "autumn": ((46, 62, 26), (82, 94, 40), (118, 114, 58), (128, 98, 52)),
}
SOIL = ((58, 42, 30), (92, 72, 50), (120, 98, 72))
LEAF_COLOURS = ((150, 90, 35), (175, 125, 40), (110, 60, 30), (140, 40, 25))
CLOVER_COLOURS = ((48, 88, 40), (62, 104, 50))
BODY_COLOURS = {"white": (236, 234, 226), "red": (178, 24, 22), "blue": (26, 60, 150)}
WOOD_COLOURS = {
    "natural_wood": ((222, 190, 140), (200, 160, 108), (176, 130, 84)),
    "dark_wood": ((96, 58, 34), (74, 44, 26), (52, 30, 18)),
}
PIP_COLOURS = {"black": (14, 12, 11), "white": (240, 238, 232)}


def linear(srgb):
    def channel(c):
        c /= 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return tuple(channel(float(c)) for c in srgb)


def rgb(srgb, scale=1.0):
    r, g, b = (scale * c for c in linear(srgb))
    return f"rgb <{r:.5f},{g:.5f},{b:.5f}>"


def vec(v):
    return "<" + ",".join(f"{c:.6f}" for c in v) + ">"


# ---------------------------------------------------------------- dice geometry


def rounded_cube(half_edge, edge_radius):
    """Three slabs, twelve edge cylinders and eight corner spheres: exact and fast to trace."""
    h, r = half_edge, edge_radius
    i = round(h - r, 6)
    parts = [f"box {{ <{-i},{-h},{-i}>, <{i},{h},{i}> }}",
             f"box {{ <{-h},{-i},{-i}>, <{h},{i},{i}> }}",
             f"box {{ <{-i},{-i},{-h}>, <{i},{i},{h}> }}"]
    for axis in range(3):
        for a in (-i, i):
            for b in (-i, i):
                start, end = [0.0] * 3, [0.0] * 3
                others = [k for k in range(3) if k != axis]
                start[others[0]] = end[others[0]] = a
                start[others[1]] = end[others[1]] = b
                start[axis], end[axis] = -i, i
                parts.append(f"cylinder {{ {vec(start)}, {vec(end)}, {r} }}")
    for sx in (-i, i):
        for sy in (-i, i):
            for sz in (-i, i):
                parts.append(f"sphere {{ <{sx},{sy},{sz}>, {r} }}")
    return "\n    ".join(parts)


def pip_positions(half_edge, spacing=PIP_SPACING):
    """(centre, outward normal) of every pip of a die in its local frame."""
    edge = 2 * half_edge
    out = []
    for value, normal in geometry.FACE_NORMALS.items():
        n = np.array(normal, float)
        # Any two axes in the face; a fixed choice keeps the 2, 3 and 6 diagonals consistent.
        u = np.roll(n, 1) if n.sum() > 0 else -np.roll(n, 1)
        v = np.cross(n, u)
        for pu, pv in PIP_LAYOUTS[value]:
            centre = n * half_edge + (pu * u + pv * v) * spacing * edge
            out.append((centre, n))
    return out


def _pips(die, style, texture, radius_fraction=PIP_RADIUS, spacing=PIP_SPACING):
    edge = 2 * die.half_edge
    radius = radius_fraction * edge
    shapes = []
    for centre, normal in pip_positions(die.half_edge, spacing):
        if style == "drilled":
            # A sphere sunk so that its cap cut from the face is a dot of the pip radius.
            sphere_r = 1.25 * radius
            lift = math.sqrt(sphere_r ** 2 - radius ** 2)
            shapes.append(f"sphere {{ {vec(centre + normal * lift)}, {sphere_r:.5f} {texture} }}")
        else:
            shapes.append(f"cylinder {{ {vec(centre - normal * 0.001)}, "
                          f"{vec(centre + normal * 0.0004)}, {radius:.5f} {texture} }}")
    return shapes


def _body_texture(scene, die):
    if scene.material in WOOD_COLOURS:
        light, mid, dark = WOOD_COLOURS[scene.material]
        rng = np.random.default_rng(die.wood_seed)
        # Rings a centimetre or more apart: finer ones alias into speckle at phone resolution.
        ring = rng.uniform(0.012, 0.025)
        pith = rng.uniform(-0.3, 0.3, 2)
        turn = rng.choice([0, 90], 2)
        varnish = 0.25 if scene.material == "dark_wood" else 0.08
        grain = (f"scale {ring:.4f} translate <{pith[0]:.3f},{pith[1]:.3f},0> "
                 f"rotate <{turn[0]},{turn[1]},{rng.uniform(0, 360):.1f}>")
        return (f"texture {{ pigment {{ wood turbulence {rng.uniform(0.02, 0.06):.3f} "
                f"color_map {{ [0 {rgb(light)}] [0.5 {rgb(mid)}] [0.75 {rgb(light)}] "
                f"[0.9 {rgb(dark)}] [1 {rgb(light)}] }} {grain} }} "
                f"finish {{ diffuse 0.75 specular {varnish} roughness 0.03 }} }}")
    colour = BODY_COLOURS[scene.material]
    # Gloss paint: a tight highlight and a faint sky reflection give the glare phones catch.
    return (f"texture {{ pigment {{ {rgb(colour)} }} normal {{ bumps 0.03 scale 0.003 }} "
            f"finish {{ diffuse 0.7 specular 0.7 roughness 0.004 reflection 0.05 }} }}")


def _pip_texture(scene):
    return (f"texture {{ pigment {{ {rgb(PIP_COLOURS[scene.pip_colour])} }} "
            f"finish {{ diffuse 0.7 specular 0.1 roughness 0.05 }} }}")


def die_photo(scene, die):
    transform = geometry.pov_matrix(die.rotation, die.center)
    if scene.world is not None:
        finish = scene.world.finish
        body_texture = pov_world.body_texture(finish, die)
        pips = "\n  ".join(_pips(die, scene.pip_style, pov_world.pip_texture(finish),
                                 finish.pip_radius, finish.pip_spacing))
    else:
        body_texture = _body_texture(scene, die)
        pips = "\n  ".join(_pips(die, scene.pip_style, _pip_texture(scene)))
    body = f"union {{\n    {rounded_cube(die.half_edge, die.edge_radius)}\n    " \
           f"{body_texture}\n  }}"
    csg = "difference" if scene.pip_style == "drilled" else "union"
    return f"{csg} {{\n  {body}\n  {pips}\n  {transform}\n}}\n"


def mask_colour(index, top):
    """Flat colour of die index in the mask: red tells the die, green whether it is the top."""
    return (index + 1) * 32, 255 if top else 0


def die_mask(index, die):
    """The die in flat colour with its top face's flat square in a second colour."""
    red, _ = mask_colour(index, False)
    flat = die.half_edge - die.edge_radius
    h = die.half_edge
    body = f"union {{ {rounded_cube(h, die.edge_radius)} {_flat(red, 0)} }}"
    top = (f"box {{ <{-flat},{h - 0.0005},{-flat}>, <{flat},{h + 0.0008},{flat}> "
           f"{_flat(red, 255)} }}")
    return f"union {{ {body} {top} {geometry.pov_matrix(die.rest_rotation, die.center)} }}\n"


def _flat(red, green):
    return (f"texture {{ pigment {{ rgb <{red / 255:.6f},{green / 255:.6f},0> }} "
            f"finish {{ emission 1 ambient 0 diffuse 0 }} }}")


# ---------------------------------------------------------------- light, sky, ground


def lights(scene):
    light = scene.light
    d = light.direction()
    if light.kind == "overcast":
        # A large dim area light stands for the bright part of the cloud cover; the rest of
        # the sky is the ambient term. Soft contact shadows, no hard edges.
        return (f"global_settings {{ ambient_light rgb <0.5,0.52,0.56> }}\n"
                f"light_source {{ {vec(d * 30)} rgb <0.85,0.87,0.9> "
                f"area_light <24,0,0>, <0,0,24>, 3, 3 adaptive 0 circular orient }}\n"
                f"sky_sphere {{ pigment {{ rgb <0.7,0.72,0.75> }} }}\n")
    if light.kind == "evening":
        return (f"global_settings {{ ambient_light rgb <0.16,0.17,0.24> }}\n"
                f"light_source {{ {vec(d * 1e4)} rgb <1.6,0.95,0.5> parallel point_at <0,0,0> }}\n"
                f"sky_sphere {{ pigment {{ gradient y color_map {{ [0 rgb <0.9,0.6,0.4>] "
                f"[0.4 rgb <0.3,0.4,0.6>] }} }} }}\n")
    return (f"global_settings {{ ambient_light rgb <0.2,0.24,0.32> }}\n"
            f"light_source {{ {vec(d * 1e4)} rgb <1.55,1.48,1.38> parallel point_at <0,0,0> }}\n"
            f"sky_sphere {{ pigment {{ gradient y color_map {{ [0 rgb <0.75,0.82,0.95>] "
            f"[0.5 rgb <0.25,0.4,0.8>] }} }} }}\n")


def _streaky_grass(palette, offset, heading_deg, length, diffuse):
    """Lawn seen from afar: thin streaks pointing away from the camera, as blades do in a
    photo, over dark gaps. Cheap stand-in for blades where there are none."""
    dark, mid, light, straw = palette
    gap = tuple(c * 0.45 for c in dark)
    stretch = f"scale <0.0035,1,{length}> rotate y*{heading_deg:.2f} translate {vec(offset)}"
    return (f"texture {{ pigment {{ wrinkles turbulence 0.15 "
            f"color_map {{ [0 {rgb(gap)}] [0.3 {rgb(dark)}] [0.45 {rgb(mid)}] "
            f"[0.62 {rgb(light)}] [0.75 {rgb(mid)}] [0.9 {rgb(straw)}] [1 {rgb(light)}] }} "
            f"{stretch} }} "
            f"normal {{ wrinkles 0.6 {stretch} }} "
            f"finish {{ diffuse {diffuse:.3f} specular 0.08 roughness 0.05 }} }}")


def _lawn_diffuse(light):
    """A flat texture cannot shadow itself; real grass in low sun is mostly in its own
    shade. Dim the texture as the sun sinks so it matches the blades around the dice
    (factors matched by eye on renders at 12, 45 and 60 degrees and under cloud)."""
    if light.kind == "overcast":
        return 0.75
    return 0.85 * (0.25 + 0.75 * math.sin(math.radians(light.elevation_deg)))


def ground(scene):
    """The lawn plane: grass streaks in slowly varying tones, bare soil where it is thin."""
    g = scene.ground
    palette = GRASS_PALETTES[g.palette]
    offset = np.array(g.pattern_offset)
    heading = math.degrees(math.atan2(scene.camera.forward[0], scene.camera.forward[2]))
    # Seen from above, blades point every way: short marks instead of long streaks.
    length = 0.004 + 0.03 * math.cos(math.radians(scene.camera_elevation_deg))
    diffuse = _lawn_diffuse(scene.light)
    # Worn lawn rather than a clean hole: soil shows through sparse dark grass.
    soil = [tuple(0.65 * a + 0.35 * b for a, b in zip(s, palette[0])) for s in SOIL]
    yellower = tuple(tuple(c * f for c, f in zip(colour, (1.08, 1.0, 0.8))) for colour in palette)
    # texture_map entries must be identifiers (or bare texture bodies), hence the #declares.
    return (f"#declare GrassA = {_streaky_grass(palette, offset, heading, length, diffuse)}\n"
            f"#declare GrassB = {_streaky_grass(yellower, -offset, heading, length, diffuse)}\n"
            f"#declare Soil = texture {{ pigment {{ granite color_map {{ [0 {rgb(soil[0])}] "
            f"[0.5 {rgb(soil[1])}] [1 {rgb(soil[2])}] }} scale 0.04 translate {vec(offset)} }} "
            f"normal {{ bumps 0.6 scale 0.004 }} finish {{ diffuse 0.8 }} }}\n"
            f"#declare Grass = texture {{ pigment_pattern {{ bozo scale 0.6 "
            f"translate {vec(offset * 0.7)} }} texture_map {{ [0.2 GrassA] [0.8 GrassB] }} }}\n"
            + _lawn_plane(g.soil_fraction, offset))


def _lawn_plane(soil_fraction, offset):
    if soil_fraction <= 0:
        return "plane { y, 0 texture { Grass } }\n"
    # Turbulence as a warp, not in the pattern: pattern turbulence pushes values past 1,
    # where they clamp, and the soil share stops following soil_fraction.
    # Plain bozo rarely leaves 0.2-0.8: a soil share of a few percent starts near 0.75.
    cut = 0.78 - 2 * soil_fraction
    return (f"plane {{ y, 0 texture {{ pigment_pattern {{ bozo scale 0.15 warp {{ turbulence 0.5 "
            f"octaves 4 }} translate {vec(offset * 1.3)} }} texture_map {{ [0 Grass] "
            f"[{cut:.3f} Grass] [{cut + 0.1:.3f} Soil] [1 Soil] }} }} }}\n")


def _jittered(rng, colour, amount):
    return tuple(float(np.clip(c * rng.uniform(1 - amount, 1 + amount), 0, 255)) for c in colour)


def ground_cover_textures_photo(scene):
    """The <Kind>Tex<i> textures the cover meshes' faces refer to (see ground_cover)."""
    rng = np.random.default_rng([scene.seed, 3])
    palette = GRASS_PALETTES[scene.ground.palette]
    out = []
    for i in range(ground_cover.COLOURS["Blade"]):
        colour = _jittered(rng, palette[1 + i % 3], 0.2)
        out.append(f"#declare BladeTex{i} = texture {{ pigment {{ {rgb(colour)} }} "
                   f"finish {{ diffuse 0.85 specular 0.15 roughness 0.03 }} }}")
    for i in range(ground_cover.COLOURS["Leaf"]):
        colour = _jittered(rng, LEAF_COLOURS[i % len(LEAF_COLOURS)], 0.15)
        out.append(f"#declare LeafTex{i} = texture {{ pigment {{ {rgb(colour)} }} "
                   f"finish {{ diffuse 0.8 specular 0.1 }} }}")
    for i in range(ground_cover.COLOURS["Clover"]):
        out.append(f"#declare CloverTex{i} = texture {{ pigment {{ {rgb(CLOVER_COLOURS[i])} }} "
                   f"finish {{ diffuse 0.8 specular 0.2 roughness 0.02 }} }}")
    return "\n".join(out) + "\n"


BLACK = "texture { pigment { rgb 0 } finish { emission 0 ambient 0 diffuse 0 } }"


def ground_cover_textures_mask():
    return "".join(f"#declare {kind}Tex{i} = {BLACK}\n"
                   for kind, n in ground_cover.COLOURS.items() for i in range(n))


def ground_cover_objects(names, blade_shadows=True):
    # Under cloud, blade shadows are too soft to see and cost most of the render time.
    def shadow(kind):
        return "" if blade_shadows or kind != "Blade" else " no_shadow"
    return "".join(f"object {{ {name}{shadow(kind)} }}\n" for name, kind in names)


# ---------------------------------------------------------------- whole files


def _includes(names):
    return "".join(f'#include "{name}"\n' for name in names)


def photo_scene(scene, include_names, names):
    world = scene.world is not None
    parts = ["#version 3.7;\n",
             "global_settings { assumed_gamma 1.0 max_trace_level 5 }\n",
             "#default { finish { ambient 1 diffuse 0.75 } }\n",
             ground_cover_textures_photo(scene),
             _includes(include_names),
             scene.camera.pov() + "\n",
             pov_world.lights(scene) if world else lights(scene),
             pov_world.ground(scene) if world else ground(scene),
             ground_cover_objects(names, blade_shadows=scene.light.kind != "overcast")]
    if world:
        parts.append(pov_world.distractors(scene, mask=False))
    parts += [die_photo(scene, die) for die in scene.dice]
    return "".join(parts)


def mask_scene(scene, include_names, names):
    parts = ["#version 3.7;\n",
             "global_settings { assumed_gamma 1.0 ambient_light rgb 1 }\n",
             "background { rgb 0 }\n",
             ground_cover_textures_mask(),
             _includes(include_names),
             scene.camera.pov() + "\n",
             f"plane {{ y, 0 {BLACK} }}\n",
             ground_cover_objects(names)]
    if scene.world is not None:  # clutter hides what it hides
        parts.append(pov_world.distractors(scene, mask=True))
    parts += [die_mask(i, die) for i, die in enumerate(scene.dice)]
    return "".join(parts)
