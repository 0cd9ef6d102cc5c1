"""POV-Ray text for what `--world` adds (tools/render/world.py): dice finishes, grounds, dappled
shade and clutter. Every shape is a POV-Ray primitive, CSG or procedural pigment; nothing is
downloaded. In the mask pass clutter is flat black, as grass blades are: it hides what it hides.
"""
import math

import numpy as np

from . import pov

WOOD_TONES = {  # light, mid, dark (sRGB)
    "natural_wood": ((222, 190, 140), (200, 160, 108), (176, 130, 84)),
    "dark_wood": ((96, 58, 34), (74, 44, 26), (52, 30, 18)),
    "grey_wood": ((168, 164, 156), (138, 134, 126), (104, 100, 94)),  # weathered, silvered
}


def _shade(srgb, factor):
    return tuple(float(np.clip(c * factor, 0, 255)) for c in srgb)


# ---------------------------------------------------------------- dice


def body_texture(finish, die):
    rng = np.random.default_rng(die.wood_seed)
    if finish.material in WOOD_TONES:
        light, mid, dark = WOOD_TONES[finish.material]
        tone = rng.uniform(0.9, 1.1)
        light, mid, dark = (_shade(c, tone) for c in (light, mid, dark))
        ring = rng.uniform(0.012, 0.025)
        pith = rng.uniform(-0.3, 0.3, 2)
        turn = rng.choice([0, 90], 2)
        specular = 0.3 if finish.gloss else 0.05
        rough = "normal { granite 0.25 scale 0.01 } " if finish.material == "grey_wood" else ""
        return (f"texture {{ pigment {{ wood turbulence {rng.uniform(0.02, 0.08):.3f} "
                f"color_map {{ [0 {pov.rgb(light)}] [0.5 {pov.rgb(mid)}] [0.75 {pov.rgb(light)}] "
                f"[0.9 {pov.rgb(dark)}] [1 {pov.rgb(light)}] }} scale {ring:.4f} "
                f"translate <{pith[0]:.3f},{pith[1]:.3f},0> "
                f"rotate <{turn[0]},{turn[1]},{rng.uniform(0, 360):.1f}> }} {rough}"
                f"finish {{ diffuse 0.75 specular {specular} roughness 0.03 }} }}")
    colour = pov.rgb(finish.body_srgb)
    if finish.swirl_srgb is not None:  # marbled: veins swirling through the body, each die its own
        vein = pov.rgb(finish.swirl_srgb)
        width = rng.uniform(0.06, 0.16)
        return (f"texture {{ pigment {{ marble turbulence {rng.uniform(0.6, 1.2):.2f} "
                f"octaves 3 lambda {rng.uniform(1.8, 2.6):.2f} color_map {{ [0 {colour}] "
                f"[{0.5 - width:.3f} {colour}] [0.5 {vein}] [{0.5 + width:.3f} {colour}] "
                f"[1 {colour}] }} scale {rng.uniform(0.06, 0.15):.3f} "
                f"rotate <{rng.uniform(0, 360):.1f},{rng.uniform(0, 360):.1f},0> }} "
                f"finish {{ diffuse 0.7 specular 0.6 roughness 0.006 reflection 0.04 }} }}")
    if finish.material == "foam":  # open-cell foam: matte, faintly pitted
        return (f"texture {{ pigment {{ {colour} }} normal {{ granite 0.2 scale 0.005 }} "
                f"finish {{ diffuse 0.8 specular 0.02 roughness 0.2 }} }}")
    if finish.gloss:
        return (f"texture {{ pigment {{ {colour} }} normal {{ bumps 0.03 scale 0.003 }} "
                f"finish {{ diffuse 0.7 specular 0.7 roughness 0.004 reflection 0.05 }} }}")
    return (f"texture {{ pigment {{ {colour} }} normal {{ bumps 0.08 scale 0.002 }} "
            f"finish {{ diffuse 0.8 specular 0.08 roughness 0.08 }} }}")


def pip_texture(finish):
    return (f"texture {{ pigment {{ {pov.rgb(finish.pip_srgb)} }} "
            f"finish {{ diffuse 0.7 specular 0.1 roughness 0.05 }} }}")


# ---------------------------------------------------------------- light


def lights(scene):
    """The plain lights, and for dappled shade the sun through a tree's leaves: a canopy 4-6 m
    up that only casts shadows (no camera or reflection sees it)."""
    light = scene.light
    if light.kind != "dappled":
        return pov.lights(scene)
    world = scene.world
    d = light.direction()
    cut = 1 - world.canopy
    return (f"global_settings {{ ambient_light rgb <0.22,0.26,0.32> }}\n"
            f"light_source {{ {pov.vec(d * 1e4)} rgb <1.55,1.48,1.38> parallel "
            f"point_at <0,0,0> }}\n"
            f"sky_sphere {{ pigment {{ gradient y color_map {{ [0 rgb <0.75,0.82,0.95>] "
            f"[0.5 rgb <0.25,0.4,0.8>] }} }} }}\n"
            f"plane {{ y, {4 + 2 * world.canopy_scale:.2f} pigment {{ bozo turbulence 0.6 "
            f"octaves 5 color_map {{ [0 rgbt <0,0,0,1>] [{cut:.3f} rgbt <0,0,0,1>] "
            f"[{min(cut + 0.04, 1):.3f} rgb 0.03] [1 rgb 0.03] }} "
            f"scale {world.canopy_scale:.3f} translate {pov.vec(world.canopy_offset)} }} "
            f"finish {{ ambient 0 diffuse 0 }} no_image no_reflection }}\n")


# ---------------------------------------------------------------- ground


def _soil_texture(name, colours, offset, scale, wet):
    c0, c1, c2 = (pov.rgb(c) for c in colours)
    finish = ("finish { diffuse 0.6 specular 0.25 roughness 0.01 reflection 0.03 }" if wet
              else "finish { diffuse 0.8 }")
    return (f"#declare {name} = texture {{ pigment {{ granite color_map {{ [0 {c0}] [0.5 {c1}] "
            f"[1 {c2}] }} scale {max(scale * 0.3, 0.01):.4f} translate {pov.vec(offset)} }} "
            f"normal {{ bumps {0.08 if wet else 0.7} scale {0.02 if wet else 0.005} }} "
            f"{finish} }}\n")


def ground(scene):
    surface = scene.world.surface
    offset = np.array(scene.ground.pattern_offset)
    kind = surface.kind
    if kind == "grass":
        return _grass(scene, surface, offset)
    c = [pov.rgb(colour) for colour in surface.colours]
    s = surface.scale
    place = f"scale {s:.4f} translate {pov.vec(offset)}"
    if kind == "soil":
        # Bare earth with damp darker patches and clods.
        return (_soil_texture("SoilA", surface.colours, offset, s, False)
                + _soil_texture("SoilB", [_shade(x, 0.6) for x in surface.colours], -offset,
                                s, surface.wet)
                + f"plane {{ y, 0 texture {{ pigment_pattern {{ bozo scale {s * 3:.3f} "
                  f"translate {pov.vec(offset * 0.5)} }} texture_map {{ [0.55 SoilA] "
                  f"[0.7 SoilB] }} }} }}\n")
    if kind == "sand":
        return (f"plane {{ y, 0 texture {{ pigment {{ granite color_map {{ [0 {c[0]}] "
                f"[0.5 {c[1]}] [1 {c[2]}] }} scale 0.003 translate {pov.vec(offset)} }} "
                f"normal {{ ripples 0.4 scale {s:.3f} translate {pov.vec(offset)} }} "
                f"finish {{ diffuse 0.8 }} }} }}\n")
    if kind == "gravel":
        stones = " ".join(f"[{i / (len(c) - 1):.3f} {col}]" for i, col in enumerate(c))
        return (f"plane {{ y, 0 texture {{ pigment {{ crackle solid color_map {{ {stones} }} "
                f"{place} }} normal {{ crackle -1.2 {place} }} finish {{ diffuse 0.8 "
                f"specular 0.1 }} }} texture {{ pigment {{ crackle color_map {{ "
                f"[0 rgb 0.02] [0.06 rgb 0.03] [0.1 rgbt 1] [1 rgbt 1] }} {place} }} }} }}\n")
    if kind == "paving":
        stone, joint = c[0], c[1]
        grain = "normal { granite 0.3 scale 0.02 } finish { diffuse 0.8 }"
        if surface.pattern == "brick":
            pattern = (f"brick color {joint} color {stone} brick_size <1,0.5,0.5> mortar 0.03 "
                       f"rotate x*90 scale {s:.3f}")
        elif surface.pattern == "hexagon":
            pattern = (f"hexagon color {stone} color {pov.rgb(_shade(surface.colours[0], 0.85))} "
                       f"color {pov.rgb(_shade(surface.colours[0], 1.1))} scale {s / 2:.3f}")
        else:
            pattern = (f"checker color {stone} color {pov.rgb(_shade(surface.colours[0], 0.88))} "
                       f"scale {s:.3f}")
        return (f"plane {{ y, 0 texture {{ pigment {{ {pattern} translate {pov.vec(offset)} }} "
                f"{grain} }} texture {{ pigment {{ granite color_map {{ [0 rgbt <0,0,0,0.85>] "
                f"[1 rgbt <1,1,1,0.9>] }} scale 0.05 }} }} }}\n")
    if kind == "decking":
        board, dark = c[0], c[1]
        return (f"plane {{ y, 0 texture {{ pigment {{ gradient z pigment_map {{ "
                f"[0 color rgb 0.02] [0.05 color rgb 0.02] [0.05 wood turbulence 0.1 "
                f"color_map {{ [0 {board}] [0.6 {board}] [1 {dark}] }} scale <0.02,0.02,1> "
                f"rotate y*90 scale <1,1,{1 / s:.3f}>] [1 wood turbulence 0.1 color_map {{ "
                f"[0 {board}] [0.6 {board}] [1 {dark}] }} scale <0.02,0.02,1> rotate y*90 "
                f"scale <1,1,{1 / s:.3f}>] }} scale <1,1,{s:.3f}> translate {pov.vec(offset)} }} "
                f"normal {{ wood 0.3 scale 0.02 rotate y*90 }} "
                f"finish {{ diffuse 0.8 specular 0.15 roughness 0.05 }} }} }}\n")
    if kind == "blanket":
        colour, white = c[0], c[1]
        stripes = f"color_map {{ [0 {colour}] [0.5 {colour}] [0.5 {white}] [1 {white}] }}"
        return (f"plane {{ y, 0 texture {{ pigment {{ average pigment_map {{ "
                f"[1 gradient x {stripes}] [1 gradient z {stripes}] }} scale {2 * s:.3f} "
                f"rotate y*{offset[0] * 7:.1f} translate {pov.vec(offset)} }} "
                f"normal {{ wrinkles 0.4 scale 0.05 }} finish {{ diffuse 0.85 }} }} }}\n")
    stops = " ".join(f"[{i / (len(c) - 1):.3f} {col}]" for i, col in enumerate(c))
    return (f"plane {{ y, 0 texture {{ pigment {{ {surface.pattern} turbulence 0.2 "
            f"color_map {{ {stops} }} {place} }} normal {{ bumps 0.3 scale {s / 4:.4f} }} "
            f"finish {{ diffuse 0.8 specular 0.1 }} }} }}\n")


def _grass(scene, surface, offset):
    """pov.ground's lawn, with bare soil and mud in patches of every size and colour."""
    palette = pov.GRASS_PALETTES[scene.ground.palette]
    heading = math.degrees(math.atan2(scene.camera.forward[0], scene.camera.forward[2]))
    length = 0.004 + 0.03 * math.cos(math.radians(scene.camera_elevation_deg))
    diffuse = pov._lawn_diffuse(scene.light)
    yellower = tuple(tuple(c * f for c, f in zip(colour, (1.08, 1.0, 0.8))) for colour in palette)
    text = (f"#declare GrassA = {pov._streaky_grass(palette, offset, heading, length, diffuse)}\n"
            f"#declare GrassB = {pov._streaky_grass(yellower, -offset, heading, length, diffuse)}\n"
            f"#declare Grass = texture {{ pigment_pattern {{ bozo scale 0.6 "
            f"translate {pov.vec(offset * 0.7)} }} "
            f"texture_map {{ [0.2 GrassA] [0.8 GrassB] }} }}\n")
    lawn = "Grass"
    if surface.soil_fraction > 0:  # worn lawn: soil showing between the blades
        text += _soil_texture("Soil", surface.soil_colours, offset, surface.soil_scale,
                              surface.wet)
        cut = max(0.05, 0.78 - 1.5 * surface.soil_fraction)
        edge = 0.02 + 0.08 * (offset[1] % 1)  # some sharp-edged, some worn into the grass
        text += (f"#declare Worn = texture {{ pigment_pattern {{ bozo scale "
                 f"{surface.soil_scale:.3f} warp {{ turbulence 0.5 octaves 4 }} "
                 f"translate {pov.vec(offset * 1.3)} }} texture_map {{ [0 Grass] "
                 f"[{cut:.3f} Grass] [{min(cut + edge, 1):.3f} Soil] [1 Soil] }} }}\n")
        lawn = "Worn"
    if not surface.patches:
        return text + f"plane {{ y, 0 texture {{ {lawn} }} }}\n"
    # Bare patches: world.patch_field's blobs, edges made ragged by a noise function.
    bare = [_shade(c, 0.85) for c in surface.soil_colours[::-1]]
    text += _soil_texture("Bare", bare, -offset, 0.1, surface.wet)
    blobs = " + ".join(
        f"exp(-pow(((x-{x:.4f})*{math.cos(a):.5f}+(z-{z:.4f})*{math.sin(a):.5f})/{rx:.4f},2)"
        f" - pow((-(x-{x:.4f})*{math.sin(a):.5f}+(z-{z:.4f})*{math.cos(a):.5f})/{rz:.4f},2))"
        for x, z, rx, rz, a in surface.patches)
    noise = surface.patch_noise
    return text + (f"#declare PatchNoise = function {{ pattern {{ bozo scale 0.06 "
                   f"translate {pov.vec(offset * 0.9)} }} }}\n"
                   f"#declare PatchField = function {{ min(max({blobs} + {noise:.3f} * "
                   f"(PatchNoise(x,y,z) - 0.5), 0), 1) }}\n"
                   f"plane {{ y, 0 texture {{ "
                   f"pigment_pattern {{ function {{ PatchField(x,y,z) }} }} "
                   f"texture_map {{ [0 {lawn}] [0.48 {lawn}] [0.52 Bare] [1 Bare] }} }} }}\n")


# ---------------------------------------------------------------- clutter


def _tex(mask, body):
    return pov.BLACK if mask else f"texture {{ {body} }}"


def _paint(srgb, gloss=0.3):
    return (f"pigment {{ {pov.rgb(srgb)} }} finish {{ diffuse 0.75 specular {gloss} "
            f"roughness 0.02 }}")


def _place(item, y=0.0):
    return f"rotate y*{item.yaw_deg:.1f} translate <{item.xz[0]:.4f},{y:.4f},{item.xz[1]:.4f}>"


def _toy_block(item, mask):
    h = item.size / 2
    if item.colour == (222.0, 190.0, 140.0):
        body = (f"pigment {{ wood turbulence 0.05 color_map {{ [0 {pov.rgb((222, 190, 140))}] "
                f"[0.8 {pov.rgb((196, 156, 104))}] [1 {pov.rgb((222, 190, 140))}] }} "
                f"scale 0.015 rotate x*{90 * (item.variant % 2)} }} "
                f"finish {{ diffuse 0.75 specular 0.1 roughness 0.03 }}")
    else:
        body = _paint(item.colour, 0.5 if item.variant < 2 else 0.05)
    radius = 2 * h * (0.04 + 0.05 * item.variant)
    return (f"union {{ {pov.rounded_cube(h, radius)} {_tex(mask, body)} "
            f"{_place(item, h - 0.002)} }}\n")


def _brick(item, mask):
    length, depth, height = 0.215, 0.1025, 0.065
    if item.variant == 2:  # on its side
        depth, height = height, depth
    body = (f"pigment {{ granite color_map {{ [0 {pov.rgb(_shade(item.colour, 0.8))}] "
            f"[1 {pov.rgb(_shade(item.colour, 1.1))}] }} scale 0.03 }} "
            f"normal {{ granite 0.4 scale 0.01 }} finish {{ diffuse 0.8 }}")
    shape = f"box {{ <{-length / 2},0,{-depth / 2}>, <{length / 2},{height},{depth / 2}> }}"
    if item.variant == 3:  # cored brick: three holes through
        holes = " ".join(f"cylinder {{ <{x},-0.01,0>, <{x},{height + 0.01},0>, 0.016 }}"
                         for x in (-0.065, 0, 0.065))
        shape = f"difference {{ {shape} {holes} }}"
    return f"object {{ {shape} {_tex(mask, body)} {_place(item, -0.003)} }}\n"


def _cup(item, mask):
    r = item.size / 2
    h = item.size * 1.1
    body = _paint(item.colour, 0.6)
    cup = (f"difference {{ cone {{ <0,0,0>, {r * 0.8:.4f}, <0,{h:.4f},0>, {r:.4f} }} "
           f"cone {{ <0,0.004,0>, {r * 0.8 - 0.003:.4f}, <0,{h + 0.01:.4f},0>, "
           f"{r - 0.003:.4f} }} }}")
    if item.variant == 0:  # a mug's handle
        cup = (f"union {{ {cup} torus {{ {h * 0.28:.4f}, 0.006 rotate x*90 "
               f"translate <{r * 0.9 + h * 0.2:.4f},{h * 0.5:.4f},0> }} }}")
    lying = f"rotate z*{90 - math.degrees(math.atan(0.2 * r / h)):.1f} translate <0,{r:.4f},0> " \
        if item.variant == 3 else ""
    return f"object {{ {cup} {_tex(mask, body)} {lying}{_place(item, 0.0)} }}\n"


def _scorecard(item, mask):
    w, d = item.size * 0.68, item.size
    paper = ("pigment { rgb <0.86,0.85,0.8> } finish { diffuse 0.8 }")
    lines = ("pigment { gradient x color_map { [0 rgb 0.08] [0.05 rgb 0.08] [0.05 rgbt 1] "
             "[1 rgbt 1] } scale 0.035 }")
    rows = ("pigment { gradient z color_map { [0 rgb 0.1] [0.08 rgb 0.1] [0.08 rgbt 1] "
            "[1 rgbt 1] } scale 0.012 }")
    card_tex = pov.BLACK if mask else f"texture {{ {paper} }} texture {{ {lines} }} " \
        f"texture {{ {rows} }}"
    card = (f"box {{ <{-w / 2:.4f},0.004,{-d / 2:.4f}>, <{w / 2:.4f},0.0048,{d / 2:.4f}> "
            f"{card_tex} {_place(item)} }}\n")
    pencil_len = 0.17
    pencil = (f"union {{ cylinder {{ <0,0,0>, <{pencil_len - 0.02},0,0>, 0.0037 "
              f"{_tex(mask, _paint((230, 190, 30), 0.4))} }} "
              f"cone {{ <{pencil_len - 0.02},0,0>, 0.0037, <{pencil_len},0,0>, 0.0006 "
              f"{_tex(mask, _paint((220, 190, 150), 0.1))} }} "
              f"rotate y*{30 + 40 * item.variant} translate <{w / 2 + 0.01:.4f},0.0075,"
              f"{-d / 4:.4f}> {_place(item)} }}\n")
    return card + pencil


def _ball(item, mask):
    r = item.size / 2
    if item.variant == 1 and r < 0.04:  # tennis ball
        body = ("pigment { granite color_map { [0 rgb <0.75,0.85,0.1>] [1 rgb <0.85,0.95,0.2>] }"
                " scale 0.002 } finish { diffuse 0.85 }")
    elif item.variant == 2:  # beach ball: coloured gores and white
        body = (f"pigment {{ radial frequency 3 color_map {{ [0 {pov.rgb(item.colour)}] "
                f"[0.5 {pov.rgb(item.colour)}] [0.5 rgb 0.85] [1 rgb 0.85] }} }} "
                f"finish {{ diffuse 0.75 specular 0.5 roughness 0.01 }}")
    else:
        body = _paint(item.colour, 0.4)
    return (f"sphere {{ <0,0,0>, {r:.4f} {_tex(mask, body)} rotate <{item.yaw_deg:.0f},0,"
            f"{item.yaw_deg * 2:.0f}> {_place(item, r - 0.004)} }}\n")


def _daisy(item, mask):
    r = item.size
    height = 0.02 + 0.01 * item.variant
    petals = " ".join(f"sphere {{ <0,0,0>, 1 scale <{r * 0.5:.4f},0.0008,{r * 0.13:.4f}> "
                      f"translate <{r * 0.55:.4f},0,0> rotate y*{k * 360 / 14:.1f} }}"
                      for k in range(14))
    return (f"union {{ union {{ {petals} {_tex(mask, _paint(item.colour, 0.1))} }} "
            f"sphere {{ <0,0.001,0>, {r * 0.22:.4f} scale <1,0.5,1> "
            f"{_tex(mask, _paint((230, 190, 20), 0.1))} }} "
            f"cylinder {{ <0,{-height:.4f},0>, <0,0,0>, 0.0012 "
            f"{_tex(mask, _paint((60, 110, 40), 0.1))} }} "
            f"rotate x*{(item.yaw_deg % 30) - 15:.1f} {_place(item, height)} }}\n")


def _clover_flower(item, mask):
    r = item.size
    height = 0.03 + 0.012 * item.variant
    head = ("pigment { granite color_map { [0 rgb <0.92,0.88,0.84>] [1 rgb <0.98,0.96,0.94>] }"
            " scale 0.002 } normal { bumps 1.2 scale 0.0015 } finish { diffuse 0.8 }")
    return (f"union {{ sphere {{ <0,0,0>, {r:.4f} scale <1,0.85,1> {_tex(mask, head)} }} "
            f"cylinder {{ <0,{-height:.4f},0>, <0,0,0>, 0.001 "
            f"{_tex(mask, _paint((70, 110, 50), 0.1))} }} {_place(item, height)} }}\n")


def _pine_cone(item, mask):
    length = item.size
    dark = pov.rgb(_shade(item.colour, 0.5))
    body = (f"pigment {{ crackle color_map {{ [0 rgb 0.02] [0.1 {dark}] "
            f"[0.4 {pov.rgb(item.colour)}] [1 {pov.rgb(_shade(item.colour, 1.2))}] }} "
            f"scale 0.008 }} normal {{ crackle 1.5 scale 0.008 }} finish {{ diffuse 0.8 }}")
    return (f"sphere {{ <0,0,0>, 1 scale <{length * 0.3:.4f},{length * 0.3:.4f},"
            f"{length / 2:.4f}> {_tex(mask, body)} {_place(item, length * 0.27)} }}\n")


def _hose(item, mask):
    r = item.size
    pts = ", ".join(f"<{x:.4f},{r:.4f},{z:.4f}>, {r:.4f}" for x, z in item.points)
    return (f"sphere_sweep {{ cubic_spline {len(item.points)}, {pts} "
            f"{_tex(mask, _paint(item.colour, 0.5))} }}\n")


def _shoe(item, mask):
    length = item.size
    width = length * 0.38
    upper = _paint(item.colour, 0.2)
    sole = _paint((235, 235, 230) if item.variant % 2 else (40, 40, 42), 0.05)
    return (f"union {{ superellipsoid {{ <0.3,0.3> scale <{length / 2:.4f},0.012,"
            f"{width / 2:.4f}> translate <0,0.012,0> {_tex(mask, sole)} }} "
            f"sphere {{ <0,0,0>, 1 scale <{length * 0.46:.4f},{0.055:.4f},{width * 0.45:.4f}> "
            f"translate <0,0.03,0> {_tex(mask, upper)} }} "
            f"cylinder {{ <{-length * 0.25:.4f},0.03,0>, <{-length * 0.3:.4f},0.11,0>, "
            f"{width * 0.42:.4f} {_tex(mask, upper)} }} {_place(item)} }}\n")


def _bottle_cap(item, mask):
    r = item.size / 2
    metal = item.variant < 2
    body = (f"pigment {{ {pov.rgb(item.colour)} }} finish {{ diffuse 0.5 specular 0.8 "
            f"roughness 0.01 metallic reflection 0.2 }}" if metal else _paint(item.colour, 0.4))
    cap = (f"difference {{ cylinder {{ <0,0,0>, <0,0.007,0>, {r:.4f} }} "
           f"cylinder {{ <0,0.001,0>, <0,0.01,0>, {r - 0.0015:.4f} }} }}")
    flip = "rotate x*180 translate <0,0.007,0>" if item.variant % 2 else ""
    return f"object {{ {cap} {_tex(mask, body)} {flip} {_place(item)} }}\n"


DRAW = {"toy_block": _toy_block, "brick": _brick, "cup": _cup, "scorecard": _scorecard,
        "ball": _ball, "daisy": _daisy, "clover_flower": _clover_flower,
        "pine_cone": _pine_cone, "hose": _hose, "shoe": _shoe, "bottle_cap": _bottle_cap}


def distractors(scene, mask):
    return "".join(DRAW[d.kind](d, mask) for d in scene.world.distractors if d.kind in DRAW)
