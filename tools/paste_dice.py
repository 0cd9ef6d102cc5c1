"""Copy-paste compositing for the detector's training (tools/train_reader.py --paste).

POV-Ray draws only the grounds tools/render/world.py knows, and a session on two cores can render
a few hundred scenes. Pasting rendered dice, cut out along their own pixels (render_scenes.py
--masks), onto other grounds shows the detector dice on any ground, with no render: procedural
grounds drawn here (checks, stripes, blotches, speckle) or any other training picture (a real
photo, a clutter scene, another render), whose own dice stay labelled. Each pasted die gets a soft
contact shadow. Decoys are pasted the same way, a die's outline filled with ground taken from
elsewhere and left unlabelled, so that a pasted edge or shadow never tells a die by itself: only
what a die looks like inside its outline does.
"""
import pathlib

import cv2
import numpy as np

FEATHER = 0.7  # the pasted outline's blur (pixels): a render's edge, not a cut-out's


def load_masks(roots):
    """{scene name as load_set names it: label image (0 ground, k + 1 truth row k's die)} of
    every NAME.mask.png beside a render folder's NAME.jpg."""
    masks = {}
    for root in roots:
        for path in sorted(pathlib.Path(root).glob("*.mask.png")):
            name = path.name[:-len(".mask.png")] + ".jpg"
            masks[f"{pathlib.Path(root).name}/{name}"] = cv2.imread(str(path),
                                                                    cv2.IMREAD_GRAYSCALE)
    return masks


def procedural_ground(h, w, rng):
    """A ground no render draws, in 2-4 random colours: a check (picnic blanket, tiles), stripes
    (decking, a towel), blotches (camouflage, stains, marble), or speckle (granite, gravel)."""
    colours = rng.uniform(0, 255, (4, 3)).astype(np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = xs * np.cos(angle) + ys * np.sin(angle)
    v = -xs * np.sin(angle) + ys * np.cos(angle)
    kind = rng.integers(4)
    if kind < 2:
        period = rng.uniform(6, 80)
        a = (np.floor(u / period) % 2)[..., None]
        if kind == 0:  # check: where stripes cross, their colours mix, as gingham's do
            b = (np.floor(v / (period * rng.uniform(0.7, 1.4))) % 2)[..., None]
            image = colours[0] + (colours[1] - colours[0]) * (a + b) / 2
        else:
            image = colours[0] * (1 - a) + colours[1] * a
    else:
        cell = rng.uniform(2, 40) if kind == 2 else rng.uniform(1, 3)
        n = int(rng.integers(2, 5))
        noise = rng.random((int(h / cell) + 2, int(w / cell) + 2)).astype(np.float32)
        noise = cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC)
        cuts = np.quantile(noise, np.sort(rng.uniform(0.2, 0.9, n - 1)))
        image = colours[np.searchsorted(cuts, noise)]
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.5))
    image += rng.normal(0, rng.uniform(2, 12), image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


def _free(box, taken):
    x, y, w, h = box
    return all(x + w <= tx - 0.1 * tw or tx + tw * 1.1 <= x or y + h <= ty - 0.1 * th or
               ty + th * 1.1 <= y for tx, ty, tw, th in taken)


def _paste(image, patch, alpha, x, y, rng):
    """patch (uint8) blended into image at (x, y) by alpha (0..1), over a soft shadow of its
    outline cast a little away from it."""
    h, w = alpha.shape
    side = max(h, w)
    dx, dy = (rng.uniform(-0.25, 0.25, 2) * side).astype(int)
    pad = side
    shadow = np.zeros((h + 2 * pad, w + 2 * pad), np.float32)
    shadow[pad + dy:pad + dy + h, pad + dx:pad + dx + w] = alpha
    shadow = cv2.GaussianBlur(shadow, (0, 0), side * rng.uniform(0.05, 0.2)) * rng.uniform(0.15, 0.6)
    H, W = image.shape[:2]
    x0, y0 = max(x - pad, 0), max(y - pad, 0)
    x1, y1 = min(x + w + pad, W), min(y + h + pad, H)
    region = image[y0:y1, x0:x1].astype(np.float32)
    oy, ox = y - pad, x - pad  # the shadow's origin in the image
    region *= 1 - shadow[y0 - oy:y1 - oy, x0 - ox:x1 - ox][..., None]
    image[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)
    target = image[y:y + h, x:x + w].astype(np.float32)
    a = alpha[..., None]
    image[y:y + h, x:x + w] = np.clip(target * (1 - a) + patch.astype(np.float32) * a, 0,
                                      255).astype(np.uint8)


def composite(background, background_dice, source, source_dice, labels, rng, ground=None):
    """background (RGB uint8) with the dice of source pasted where it has room, each cut out
    along its pixels in labels; returns (picture, dice): background_dice and the pasted dice,
    as load_set's (value, x, y, w, h, top_visible). The dice are pasted at the background's own
    dice's size when it has dice, else at 0.6-1.4 times their size in source; a die whose top
    cannot be read is not pasted alone (its outline is another die's edge). ground (RGB uint8,
    any size) fills the decoys, background itself when None."""
    image = background.copy()
    H, W = image.shape[:2]
    sides = [max(d[3], d[4]) for d in source_dice if d[5]]
    if not sides:
        return image, list(background_dice)
    if background_dice:
        wanted = np.median([max(d[3], d[4]) for d in background_dice]) * rng.uniform(0.85, 1.15)
        scale = wanted / np.median(sides)
    else:
        scale = rng.uniform(0.6, 1.4) * max(H, W) / max(source.shape[:2])
    sw, sh = max(1, round(source.shape[1] * scale)), max(1, round(source.shape[0] * scale))
    source = cv2.resize(source, (sw, sh), interpolation=cv2.INTER_AREA if scale < 1 else
                        cv2.INTER_LINEAR)
    labels = cv2.resize(labels, (sw, sh), interpolation=cv2.INTER_NEAREST)
    dice = list(background_dice)
    taken = [d[1:5] for d in background_dice]
    outlines = []
    for row, die in enumerate(source_dice):
        ys, xs = np.nonzero(labels == row + 1)
        if not die[5] or len(xs) < 16:
            continue
        x0, y0, x1, y1 = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
        w, h = x1 - x0, y1 - y0
        if w >= W or h >= H:
            continue
        alpha = cv2.GaussianBlur((labels[y0:y1, x0:x1] == row + 1).astype(np.float32), (0, 0),
                                 FEATHER)
        outlines.append(alpha)
        for _ in range(20):
            x, y = int(rng.integers(0, W - w)), int(rng.integers(0, H - h))
            if _free((x, y, w, h), taken):
                patch = np.clip(source[y0:y1, x0:x1].astype(np.float32) * rng.uniform(0.85, 1.15),
                                0, 255).astype(np.uint8)
                _paste(image, patch, alpha, x, y, rng)
                taken.append((x, y, w, h))
                dice.append((die[0], float(x), float(y), float(w), float(h), True))
                break
    ground = image if ground is None else ground
    for _ in range(int(rng.integers(0, 3)) if outlines else 0):
        alpha = outlines[int(rng.integers(len(outlines)))]
        h, w = alpha.shape
        gh, gw = ground.shape[:2]
        if w >= min(W, gw) or h >= min(H, gh):
            continue
        gx, gy = int(rng.integers(0, gw - w)), int(rng.integers(0, gh - h))
        for _ in range(20):
            x, y = int(rng.integers(0, W - w)), int(rng.integers(0, H - h))
            if _free((x, y, w, h), taken):
                _paste(image, ground[gy:gy + h, gx:gx + w].copy(), alpha, x, y, rng)
                taken.append((x, y, w, h))
                break
    return image, dice
