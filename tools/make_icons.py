"""Draws the page's app icons (src/page/icon-192.png, icon-512.png): a white five on lawn green,
the same picture as src/page/icon.svg, for phones that want PNG icons (Android's home screen,
iOS's apple-touch-icon). Run it again after changing the SVG's picture.

usage: /usr/bin/python3 tools/make_icons.py
"""
import os

import cv2
import numpy as np

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "page")


def icon(size):
    scale = 8  # drawn large and shrunk: smooth edges without antialiased primitives
    big = size * scale
    unit = big / 100.0
    image = np.zeros((big, big, 3), np.uint8)
    image[:] = (0x32, 0x7D, 0x2E)  # BGR of #2e7d32
    x0, x1, radius = int(14 * unit), int(86 * unit), int(14 * unit)
    for color, inset in (((0, 0, 0), 0), ((255, 255, 255), int(5 * unit))):
        a, b, r = x0 + inset, x1 - inset, max(radius - inset, 1)
        cv2.rectangle(image, (a + r, a), (b - r, b), color, -1)
        cv2.rectangle(image, (a, a + r), (b, b - r), color, -1)
        for cx, cy in ((a + r, a + r), (b - r, a + r), (a + r, b - r), (b - r, b - r)):
            cv2.circle(image, (cx, cy), r, color, -1)
    for cx, cy in ((32, 32), (68, 32), (50, 50), (32, 68), (68, 68)):
        cv2.circle(image, (int(cx * unit), int(cy * unit)), int(7 * unit), (0, 0, 0), -1)
    return cv2.resize(image, (size, size), interpolation=cv2.INTER_AREA)


for size in (192, 512):
    path = os.path.join(HERE, "icon-%d.png" % size)
    cv2.imwrite(path, icon(size), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print("%s: %d bytes" % (os.path.relpath(path), os.path.getsize(path)))
