"""EXIF Orientation by hand: store the pixels turned, tag them so a viewer turns them back.

The segment is the smallest valid one: "Exif\\0\\0", a TIFF header and IFD0 holding the single
Orientation entry (tag 0x0112, SHORT). It replaces the JFIF APP0 and follows SOI directly, as
the Exif standard places APP1.
"""
import struct

import cv2
import numpy as np

ORIENTATION_TAG = 0x0112
TIFF_SHORT = 3


def to_stored(upright, orientation):
    """The pixels a camera stores so that applying the tag's transform shows upright."""
    # The tag says how to turn the stored image for display; store the inverse of that.
    stored = {
        1: lambda im: im,
        2: lambda im: im[:, ::-1],  # display mirrors left-right: self-inverse
        3: lambda im: im[::-1, ::-1],  # display turns 180
        4: lambda im: im[::-1],  # display mirrors top-bottom
        5: lambda im: np.swapaxes(im, 0, 1),  # display transposes
        6: lambda im: np.rot90(im, 1),  # display turns 90 clockwise, so store counter-clockwise
        7: lambda im: np.rot90(im, 2).swapaxes(0, 1),  # display transverses (anti-diagonal)
        8: lambda im: np.rot90(im, -1),  # display turns 90 counter-clockwise
    }[orientation](upright)
    return np.ascontiguousarray(stored)


def exif_segment(orientation, big_endian):
    order = ">" if big_endian else "<"
    tiff = (b"MM" if big_endian else b"II") + struct.pack(order + "HI", 42, 8)
    entry = struct.pack(order + "HHI", ORIENTATION_TAG, TIFF_SHORT, 1) \
        + struct.pack(order + "H", orientation) + b"\0\0"
    ifd0 = struct.pack(order + "H", 1) + entry + struct.pack(order + "I", 0)
    payload = b"Exif\0\0" + tiff + ifd0
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def encode(upright_bgr, quality, orientation, write_exif, big_endian):
    """JPEG bytes of the upright image, stored turned per orientation, with its APP1."""
    ok, buf = cv2.imencode(".jpg", to_stored(upright_bgr, orientation),
                           [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    data = buf.tobytes()
    if not write_exif:
        return data
    assert data[:2] == b"\xff\xd8"
    rest = data[2:]
    if rest[:2] == b"\xff\xe0":  # drop JFIF APP0: Exif files start with APP1
        rest = rest[2 + struct.unpack(">H", rest[2:4])[0]:]
    return b"\xff\xd8" + exif_segment(orientation, big_endian) + rest
