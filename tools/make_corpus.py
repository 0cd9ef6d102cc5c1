#!/usr/bin/python3
"""Writes tests/corpus/: bad and odd photos, cards and game files for tests/test_corpus.sh.

Deterministic: a seeded scene, OpenCV's JPEG/PNG encoders, libheif's heif-enc (Debian's
libheif-examples) for HEIC, and headers written here byte by byte, so running it again gives
the same files (they are committed; this says how they were made).
usage: tools/make_corpus.py [OUT_DIR]   (default tests/corpus)

Names say what a file is meant to provoke: bad_* must be refused with exit 1 and one line
naming the file; odd_* are valid and must load; exif_* are one upright scene stored turned
eight ways (or with a broken EXIF block) that must all give the same dice; heic_* are that
scene as an iPhone stores it, turned by an irot box. The 5 MB JSON file
is not here (too big to commit): test_corpus.sh writes it.
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render import jpeg_exif  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "tests", "corpus")

PIPS = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 3, 6, 2, 5, 8]}


def scene(width, height, side, block):
    """A lawn of noisy green and five white dice seen from above (BGR). The lawn is flat over
    block x block squares and the dice sit on 16-pixel boundaries, so JPEG coding loses nearly
    the same whichever way the pixels are stored turned."""
    rng = np.random.default_rng(12345)
    noise = rng.integers(0, 90, (height // block, width // block)).astype(np.uint8)
    shade = cv2.resize(noise, (width, height), interpolation=cv2.INTER_NEAREST).astype(int)
    image = np.zeros((height, width, 3), np.uint8)
    image[..., 0] = 20 + shade // 4
    image[..., 1] = 80 + shade
    image[..., 2] = 30 + shade // 3
    gap = (width - 5 * side) // 6 // 16 * 16
    for d, value in enumerate([1, 3, 4, 5, 6]):
        left = gap + d * (side + gap)
        top = (height // 2 - side // 2 + (-1 if d % 2 else 1) * side // 4) // 16 * 16
        cv2.rectangle(image, (left, top), (left + side - 1, top + side - 1), (220, 230, 235), -1)
        for cell in PIPS[value]:
            cx = left + side // 4 * (1 + cell % 3)
            cy = top + side // 4 * (1 + cell // 3)
            cv2.circle(image, (cx, cy), side // 10, (30, 25, 25), -1, cv2.LINE_AA)
    return image


def jpeg(image, quality=85, progressive=False):
    params = [cv2.IMWRITE_JPEG_QUALITY, quality]
    if progressive:
        params += [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]
    ok, buf = cv2.imencode(".jpg", image, params)
    assert ok
    return buf.tobytes()


def png(image, level=9):
    ok, buf = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, level])
    assert ok
    return buf.tobytes()


def segments(data):
    """(marker, payload) of each JPEG segment up to and including SOS; then the rest."""
    at, out = 2, []
    while True:
        marker = data[at + 1]
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        out.append((marker, data[at + 4:at + 2 + length]))
        at += 2 + length
        if marker == 0xDA:
            return out, data[at:]


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + \
        struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def ihdr(width, height, depth=8, color_type=2):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0))


def jpeg_claiming(width, height, gray_jpeg):
    """A small real JPEG's tables and scan behind a SOF0 that claims width x height."""
    parts, scan = segments(gray_jpeg)
    out = b"\xff\xd8"
    for marker, payload in parts:
        if marker == 0xC0:
            payload = payload[:1] + struct.pack(">HH", height, width) + payload[5:]
        out += segment(marker, payload)
    return out + scan


def cmyk_jpeg(image_bgr):
    """An Adobe CMYK JPEG: four grey JPEGs' scans, one per component, under one SOF0 with
    four components and an APP14 "Adobe" segment (transform 0: no colour transform). Values
    are stored inverted, as Photoshop writes them."""
    rgb = image_bgr[..., ::-1].astype(np.float64)
    top = np.maximum(rgb.max(axis=2), 1)
    planes = [255 * rgb[..., i] / top for i in range(3)] + [rgb.max(axis=2)]
    grays = [jpeg(np.clip(p + 0.5, 0, 255).astype(np.uint8), 90) for p in planes]
    first, _ = segments(grays[0])
    out = b"\xff\xd8" + segment(0xEE, b"Adobe" + struct.pack(">HHHB", 100, 0, 0, 0))
    height, width = image_bgr.shape[:2]
    for marker, payload in first:
        if marker == 0xDB or marker == 0xC4:
            out += segment(marker, payload)
    sof = struct.pack(">BHHB", 8, height, width, 4)
    for component in range(4):
        sof += bytes([component + 1, 0x11, 0])
    out += segment(0xC0, sof)
    for component, gray in enumerate(grays):
        parts, scan = segments(gray)
        tables = {m: p for m, p in parts}
        assert tables[0xDB] == dict(first)[0xDB] and tables[0xC4] == dict(first)[0xC4]
        assert scan.endswith(b"\xff\xd9")
        out += segment(0xDA, bytes([1, component + 1, 0x00, 0, 63, 0])) + scan[:-2]
    return out + b"\xff\xd9"


def palette_png_with_trns(image_bgr):
    """8-bit palette PNG (colour type 3) with a tRNS chunk making entry 0 transparent."""
    small = image_bgr[..., ::-1] // 64  # 4 levels a channel: 64 colours
    index = (small[..., 0] * 16 + small[..., 1] * 4 + small[..., 2]).astype(np.uint8)
    palette = b"".join(bytes([r * 85, g * 85, b * 85])
                       for r in range(4) for g in range(4) for b in range(4))
    raw = b"".join(b"\0" + row.tobytes() for row in index)
    height, width = index.shape
    return PNG_SIGNATURE + ihdr(width, height, 8, 3) + chunk(b"PLTE", palette) + \
        chunk(b"tRNS", bytes([0, 128])) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def exif_app1(tiff):
    payload = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def with_app1(jpeg_bytes, app1):
    rest = jpeg_bytes[2:]
    if rest[:2] == b"\xff\xe0":
        rest = rest[2 + struct.unpack(">H", rest[2:4])[0]:]
    return b"\xff\xd8" + app1 + rest


def malformed_exif_blocks():
    """TIFF bodies whose offsets lie: each must be ignored (orientation 1), never followed."""
    entry = struct.pack("<HHIHH", 0x010F, 3, 1, 6, 0)  # not Orientation: the walk must stop
    return {
        # IFD0 offset far past the segment's end.
        "ifd_out_of_segment": b"II" + struct.pack("<HI", 42, 0xFFFFFFF0),
        # IFD0 claims 65535 entries; only one is there.
        "entries_past_end": b"II" + struct.pack("<HIH", 42, 8, 0xFFFF) + entry,
        # IFD0's next-IFD pointer and an EXIF sub-IFD pointer lead back to IFD0: a loop.
        "ifd_loop": b"II" + struct.pack("<HIH", 42, 8, 1)
        + struct.pack("<HHII", 0x8769, 4, 1, 8) + struct.pack("<I", 8),
        # Orientation with a count of 1000 and a value offset out of the segment.
        "orientation_offset_out": b"II" + struct.pack("<HIH", 42, 8, 1)
        + struct.pack("<HHII", 0x0112, 3, 1000, 0x7FFFFFF0) + struct.pack("<I", 0),
        # Orientation 9: no such value.
        "orientation_9": b"MM" + struct.pack(">HIH", 42, 8, 1)
        + struct.pack(">HHIHH", 0x0112, 3, 1, 9, 0) + struct.pack(">I", 0),
        # Byte order neither II nor MM, and a TIFF header cut short.
        "bad_byte_order": b"XX" + struct.pack("<HI", 42, 8),
        "tiff_cut_short": b"II*",
    }


VALID_CARD = b'{"rules": "yahtzee", "boxes": {"aces": 3, "twos": 6, "sixes": 24}, "yahtzee_bonus": 0}\n'
VALID_GAME = (b'{"yardzee_game": 1, "rules": "yahtzee", "players": ["Ann", "Bob"], "moves": [\n'
              b'  {"player": "Ann", "throw": [1, 3, 3, 4, 6]},\n'
              b'  {"player": "Ann", "keep": [3, 3]},\n'
              b'  {"player": "Ann", "throw": [3, 3, 3, 2, 5]},\n'
              b'  {"player": "Ann", "score": "threes", "points": 9}\n]}\n')


def heic(jpeg_bytes, quality=50):
    """heif-enc's HEIC of a JPEG: the pixels as stored, any EXIF block copied, no transform."""
    with tempfile.TemporaryDirectory() as tmp:
        source, out = os.path.join(tmp, "in.jpg"), os.path.join(tmp, "out.heic")
        with open(source, "wb") as f:
            f.write(jpeg_bytes)
        subprocess.run(["heif-enc", "-q", str(quality), "-o", out, source], check=True,
                       stdout=subprocess.DEVNULL)
        with open(out, "rb") as f:
            return f.read()


def boxes(data, start=0, end=None):
    """(type, start, end) of the ISO-BMFF boxes in data[start:end] (32-bit sizes only)."""
    end = len(data) if end is None else end
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        yield kind, start, start + size
        start += size


def with_irot(heic_bytes, quarter_turns):
    """The HEIC with an irot property on its only image: show it turned quarter_turns x 90
    degrees counter-clockwise, as iPhones mark a photo taken with the phone held upright. The
    meta box grows, so the sizes around the new bytes and iloc's offsets into mdat move."""
    data = bytearray(heic_bytes)
    top = {kind: (at, end) for kind, at, end in boxes(data)}
    meta_at, meta_end = top[b"meta"]
    assert meta_end <= top[b"mdat"][0], "meta must come before mdat"
    inner = {kind: (at, end) for kind, at, end in boxes(data, meta_at + 12, meta_end)}  # FullBox
    iprp_at, iprp_end = inner[b"iprp"]
    props = {kind: (at, end) for kind, at, end in boxes(data, iprp_at + 8, iprp_end)}
    ipco_at, ipco_end = props[b"ipco"]
    ipma_at, ipma_end = props[b"ipma"]
    n_props = sum(1 for _ in boxes(data, ipco_at + 8, ipco_end))
    version, flags = data[ipma_at + 8], int.from_bytes(data[ipma_at + 9:ipma_at + 12], "big")
    assert version == 0 and flags & 1 == 0 and n_props + 1 < 128, "small ipma only"
    entries = struct.unpack(">I", data[ipma_at + 12:ipma_at + 16])[0]
    assert entries == 1, "one image item only"
    irot = struct.pack(">I4sB", 9, b"irot", quarter_turns & 3)
    association = bytes([0x80 | (n_props + 1)])  # essential, 1-based index into ipco
    grown = len(irot) + len(association)
    # First every change in place, then the two insertions, the later one first: nothing
    # moves before it is written.
    data[ipma_at + 16 + 2] += 1  # the item's association count, after its ID
    for at, more in ((ipma_at, len(association)), (ipco_at, len(irot)), (iprp_at, grown),
                     (meta_at, grown)):
        size = struct.unpack(">I", data[at:at + 4])[0]
        data[at:at + 4] = struct.pack(">I", size + more)
    # iloc (version 0 or 1): every extent lies in mdat, which moved by `grown` bytes.
    iloc_at, _ = inner[b"iloc"]
    pos = iloc_at + 8
    version = data[pos]
    pos += 4
    offset_size, length_size = data[pos] >> 4, data[pos] & 15
    base_size, index_size = data[pos + 1] >> 4, (data[pos + 1] & 15) if version else 0
    pos += 2
    count = struct.unpack(">H", data[pos:pos + 2])[0]
    pos += 2

    def shift(at, size):
        if size:
            value = int.from_bytes(data[at:at + size], "big") + grown
            data[at:at + size] = value.to_bytes(size, "big")

    for _ in range(count):
        pos += 2  # item ID
        if version:
            assert data[pos + 1] & 15 == 0, "file offsets only"
            pos += 2
        pos += 2  # data reference index
        base_at = pos
        base = int.from_bytes(data[pos:pos + base_size], "big")
        pos += base_size
        extents = struct.unpack(">H", data[pos:pos + 2])[0]
        pos += 2
        if base:
            shift(base_at, base_size)
        for _ in range(extents):
            pos += index_size
            if not base:
                shift(pos, offset_size)
            pos += offset_size + length_size
    data[ipma_end:ipma_end] = association
    data[ipco_end:ipco_end] = irot
    return bytes(data)


def game(moves, extra=b""):
    return (b'{"yardzee_game": 1, "rules": "yahtzee", "players": ["Ann", "Bob"]' + extra +
            b', "moves": [' + moves + b']}\n')


def json_files():
    throw = b'{"player": "Ann", "throw": [1, 3, 3, 4, 6]}'
    files = {
        "ok_card.json": VALID_CARD,
        "ok_game.json": VALID_GAME,
        "bad_card_truncated.json": VALID_CARD[:40],
        "bad_card_truncated_in_string.json": VALID_CARD[:5],
        "bad_game_truncated.json": VALID_GAME[:120],
        "bad_game_truncated_in_number.json": VALID_GAME[:VALID_GAME.index(b"6]}") + 1],
        "bad_deep_100000.json": b"[" * 100000,
        "bad_card_1e400.json": b'{"boxes": {"aces": 1e400}}',
        "bad_card_big_integer.json": b'{"boxes": {"aces": 99999999999999999999}}',
        "bad_card_integer_out_of_range.json": b'{"boxes": {"aces": 9223372036854775807}}',
        "bad_card_negative.json": b'{"boxes": {"aces": -3}}',
        "bad_card_real.json": b'{"boxes": {"aces": 3.0}}',
        "bad_card_bonus_1e400.json": b'{"yahtzee_bonus": 1e400}',
        "bad_card_duplicate_key.json": b'{"boxes": {"aces": 3}, "boxes": {"twos": 6}}',
        "bad_card_duplicate_box.json": b'{"boxes": {"aces": 3, "aces": 2}}',
        "bad_card_unknown_box.json": b'{"boxes": {"sevens": 7}}',
        "bad_card_unknown_key.json": b'{"rules": "yahtzee", "score": 12}',
        "bad_card_boxes_array.json": b'{"boxes": [3, 6, 9]}',
        "bad_card_top_array.json": b'[{"boxes": {}}]',
        "bad_card_top_string.json": b'"yahtzee"',
        "bad_card_string_number.json": b'{"boxes": {"aces": "3"}}',
        "bad_card_bool.json": b'{"boxes": {"aces": true}}',
        "bad_card_rules_number.json": b'{"rules": 7}',
        "bad_card_bonus_string.json": b'{"yahtzee_bonus": "0"}',
        "bad_card_nul_byte.json": b'{"rules": "yah\0tzee"}',
        "bad_card_nul_escape.json": b'{"rules": "yah\\u0000tzee"}',
        "bad_card_invalid_utf8.json": b'{"rules": "yah\xff\xfetzee"}',
        "bad_card_invalid_utf8_key.json": b'{"boxes": {"ac\xc3\x28es": 3}}',
        "bad_card_overlong_utf8.json": b'{"rules": "\xc0\xafyahtzee"}',
        "bad_card_bom.json": b"\xef\xbb\xbf" + VALID_CARD,
        "bad_card_empty.json": b"",
        "bad_card_trailing_garbage.json": VALID_CARD + b"}",
        "bad_game_1e400.json": game(b'{"player": "Ann", "throw": [1, 3, 3, 4, 1e400]}'),
        "bad_game_big_integer.json": game(b'{"player": "Ann", "throw": [1, 3, 3, 4, 99999999999999999999]}'),
        "bad_game_version_big.json": b'{"yardzee_game": 99999999999999999999, "rules": "yahtzee", '
                                     b'"players": ["Ann"], "moves": []}',
        "bad_game_version_string.json": b'{"yardzee_game": "1", "rules": "yahtzee", '
                                        b'"players": ["Ann"], "moves": []}',
        "bad_game_duplicate_key.json": game(throw, b', "players": ["Eve"]'),
        "bad_game_duplicate_move_key.json": game(b'{"player": "Ann", "throw": [1, 3, 3, 4, 6], '
                                                 b'"throw": [6, 6, 6, 6, 6]}'),
        "bad_game_unknown_box.json": game(throw + b', {"player": "Ann", "score": "sevens"}'),
        "bad_game_unknown_rules.json": game(throw).replace(b'"yahtzee"', b'"poker"'),
        "bad_game_players_string.json": b'{"yardzee_game": 1, "rules": "yahtzee", "players": "Ann", "moves": []}',
        "bad_game_player_number.json": b'{"yardzee_game": 1, "rules": "yahtzee", "players": [7], "moves": []}',
        "bad_game_moves_object.json": b'{"yardzee_game": 1, "rules": "yahtzee", "players": ["Ann"], "moves": {}}',
        "bad_game_move_array.json": game(b'[1, 3, 3, 4, 6]'),
        "bad_game_throw_strings.json": game(b'{"player": "Ann", "throw": ["1", "3", "3", "4", "6"]}'),
        "bad_game_points_string.json": game(b'{"player": "Ann", "throw": [3, 3, 3, 4, 6]}, '
                                            b'{"player": "Ann", "score": "threes", "points": "9"}'),
        "bad_game_throw_real.json": game(b'{"player": "Ann", "throw": [1.0, 3, 3, 4, 6]}'),
        "bad_game_top_array.json": b"[" + VALID_GAME + b"]",
        "bad_game_nul_byte.json": VALID_GAME.replace(b'"Bob"', b'"B\0b"'),
        "bad_game_nul_escape.json": VALID_GAME.replace(b'"Bob"', b'"B\\u0000b"'),
        "bad_game_invalid_utf8.json": VALID_GAME.replace(b'"Bob"', b'"B\xff\xfeb"'),
        "bad_game_bom.json": b"\xef\xbb\xbf" + VALID_GAME,
        "bad_game_empty.json": b"",
        "bad_game_too_many_moves.json": game(b", ".join([b"{}"] * 1001)),
    }
    return files


def image_files():
    files = {}
    small = scene(384, 192, 56, 16)
    height, width = small.shape[:2]
    small_jpeg = jpeg(small, 80)
    small_png = png(small)
    files["ok_scene.jpg"] = small_jpeg
    files["ok_scene.png"] = small_png

    # Truncated: cut at several points, from inside the first marker to just before the end.
    _, scan = segments(small_jpeg)
    scan_start = len(small_jpeg) - len(scan)
    for name, cut in [("after_soi", 2), ("in_app0", 10), ("in_tables", 100),
                      ("at_scan_start", scan_start), ("in_scan", scan_start + 200),
                      ("half", len(small_jpeg) // 2), ("no_eoi", len(small_jpeg) - 2)]:
        files[f"bad_truncated_{name}.jpg"] = small_jpeg[:cut]
    idat_at = small_png.index(b"IDAT") - 4
    for name, cut in [("in_signature", 4), ("after_signature", 8), ("in_ihdr", 20),
                      ("after_ihdr", 33), ("in_idat", idat_at + 100),
                      ("half", len(small_png) // 2), ("no_iend", len(small_png) - 12)]:
        files[f"bad_truncated_{name}.png"] = small_png[:cut]

    # Corrupt: bytes flipped in headers and in the data, of a small corner of the scene.
    tiny = np.ascontiguousarray(small[64:128, 0:128])
    tiny_jpeg = jpeg(tiny, 80)
    _, tiny_scan = segments(tiny_jpeg)
    tiny_scan_start = len(tiny_jpeg) - len(tiny_scan)
    def flipped(data, at, mask=0xFF):
        data = bytearray(data)
        data[at] ^= mask
        return bytes(data)
    sof_at = tiny_jpeg.index(b"\xff\xc0")
    dqt_at = tiny_jpeg.index(b"\xff\xdb")
    dht_at = tiny_jpeg.index(b"\xff\xc4")
    files["bad_corrupt_soi.jpg"] = flipped(tiny_jpeg, 1)
    files["bad_corrupt_sof_marker.jpg"] = flipped(tiny_jpeg, sof_at + 1, 0x0F)  # SOF0 -> SOF15
    files["bad_corrupt_sof_precision.jpg"] = flipped(tiny_jpeg, sof_at + 4, 0x0F)  # 8 -> 7 bits
    files["bad_corrupt_sof_components.jpg"] = flipped(tiny_jpeg, sof_at + 9, 0xFF)
    files["bad_corrupt_dqt_length.jpg"] = flipped(tiny_jpeg, dqt_at + 2, 0xFF)
    files["bad_corrupt_dht_counts.jpg"] = flipped(tiny_jpeg, dht_at + 6, 0xFF)
    files["bad_corrupt_sos_table.jpg"] = flipped(tiny_jpeg, tiny_scan_start - 5, 0x33)
    # Markers that cannot appear in entropy-coded data: a SOF inside the scan.
    files["bad_corrupt_marker_in_scan.jpg"] = (tiny_jpeg[:tiny_scan_start + 100] + b"\xff\xc0" +
                                               tiny_jpeg[tiny_scan_start + 102:])
    ihdr_at = small_png.index(b"IHDR")
    files["bad_corrupt_signature.png"] = flipped(small_png, 1, 0x20)
    files["bad_corrupt_ihdr_width.png"] = flipped(small_png, ihdr_at + 6)  # width; CRC now wrong
    files["bad_corrupt_ihdr_crc.png"] = flipped(small_png, ihdr_at + 4 + 13)  # the CRC itself
    files["bad_corrupt_ihdr_depth.png"] = small_png[:8] + ihdr(width, height, 7, 2) + small_png[33:]
    files["bad_corrupt_ihdr_colour_type.png"] = small_png[:8] + ihdr(width, height, 8, 5) + small_png[33:]
    files["bad_corrupt_idat_crc.png"] = flipped(small_png, idat_at + 300)
    raw = b"".join(b"\x07" + row.tobytes() for row in small[..., ::-1])  # filter type 7
    files["bad_corrupt_filter_type.png"] = (PNG_SIGNATURE + ihdr(width, height) +
                                            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    files["bad_corrupt_deflate.png"] = (PNG_SIGNATURE + ihdr(width, height) +
                                        chunk(b"IDAT", b"\x78\x9c" + bytes(range(7, 250))) +
                                        chunk(b"IEND", b""))
    files["bad_corrupt_no_ihdr.png"] = PNG_SIGNATURE + chunk(b"IEND", b"") + b"\0" * 16

    files["bad_text_named_photo.jpg"] = b"This is not a photo of dice.\nIt is a text file.\n"
    files["bad_empty.jpg"] = b""
    files["bad_empty.png"] = b""

    # Headers that claim too much. A JPEG SOF holds 16-bit sizes: 65535 is the most it can
    # claim (libjpeg itself stops at 65500), so 100000 x 100000 is for PNG only.
    gray_jpeg = jpeg(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), 50)
    tiny_gray_jpeg = jpeg(cv2.cvtColor(tiny, cv2.COLOR_BGR2GRAY), 50)
    files["bad_sof_65535x65535.jpg"] = jpeg_claiming(65535, 65535, tiny_gray_jpeg)
    files["bad_sof_65500x65500.jpg"] = jpeg_claiming(65500, 65500, tiny_gray_jpeg)
    files["bad_sof_1x65500.jpg"] = jpeg_claiming(1, 65500, tiny_gray_jpeg)
    files["bad_sof_10000x10000.jpg"] = jpeg_claiming(10000, 10000, tiny_gray_jpeg)
    files["bad_sof_0x160.jpg"] = jpeg_claiming(0, 160, tiny_gray_jpeg)
    idat = chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
    files["bad_ihdr_100000x100000.png"] = PNG_SIGNATURE + ihdr(100000, 100000) + idat
    files["bad_ihdr_1x1000000.png"] = PNG_SIGNATURE + ihdr(1, 1000000) + idat
    files["bad_ihdr_10000x10000.png"] = PNG_SIGNATURE + ihdr(10000, 10000) + idat
    files["bad_ihdr_0x0.png"] = PNG_SIGNATURE + ihdr(0, 0) + idat
    files["bad_ihdr_4294967295x1.png"] = PNG_SIGNATURE + ihdr(0xFFFFFFFF, 1) + idat

    # Valid oddities: every one must load.
    files["odd_16bit.png"] = png(small.astype(np.uint16) * 257)
    files["odd_16bit_gray.png"] = png(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.uint16) * 257)
    files["odd_rgba.png"] = png(cv2.cvtColor(small, cv2.COLOR_BGR2BGRA))
    files["odd_palette_trns.png"] = palette_png_with_trns(small)
    files["odd_gray.jpg"] = gray_jpeg
    files["odd_gray.png"] = png(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))
    files["odd_cmyk_adobe.jpg"] = cmyk_jpeg(small)
    files["odd_progressive.jpg"] = jpeg(small, 80, progressive=True)

    # One upright photo (samples/lawn/lawn_000.jpg at half size, its shape kept: the dice as
    # the detector sees them in the full photo), stored turned as each EXIF Orientation says,
    # 1..8. JPEG loses a little differently each way round, so the reader may see the same
    # dice a pixel apart.
    lawn = cv2.imread(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples",
                                   "lawn", "lawn_000.jpg"))
    upright = cv2.resize(lawn, (lawn.shape[1] // 2, lawn.shape[0] // 2), interpolation=cv2.INTER_AREA)
    for orientation in range(1, 9):
        stored = jpeg(jpeg_exif.to_stored(upright, orientation), 75)
        files[f"exif_orientation_{orientation}.jpg"] = with_app1(
            stored, jpeg_exif.exif_segment(orientation, big_endian=orientation % 2 == 0))
    # The same photo as HEIC: upright, and stored turned with the irot box saying how to show
    # it and an EXIF Orientation that agrees (what an iPhone writes). The HEIF standard makes the
    # box count; turning again for the EXIF tag would show it sideways.
    files["heic_upright.heic"] = heic(jpeg(upright, 95))
    for orientation, quarter_turns in [(8, 1), (3, 2), (6, 3)]:
        stored = jpeg(jpeg_exif.to_stored(upright, orientation), 95)
        files[f"heic_irot_{quarter_turns}.heic"] = with_irot(
            heic(with_app1(stored, jpeg_exif.exif_segment(orientation, big_endian=False))),
            quarter_turns)
    upright_heic = files["heic_upright.heic"]
    files["bad_truncated_half.heic"] = upright_heic[:len(upright_heic) // 2]
    files["bad_truncated_in_ftyp.heic"] = upright_heic[:16]
    hvcc = upright_heic.index(b"hvcC") - 4
    hvcc_size = struct.unpack(">I", upright_heic[hvcc:hvcc + 4])[0]
    files["bad_corrupt_hvcc.heic"] = (upright_heic[:hvcc + 8] + bytes(hvcc_size - 8) +
                                      upright_heic[hvcc + hvcc_size:])
    # Sizes that must be refused before anything is decoded: the ispe property claims them.
    ispe = upright_heic.index(b"ispe") + 8  # after the type, version and flags
    for w, h in [(30000, 30000), (10000, 10000)]:
        files[f"bad_ispe_{w}x{h}.heic"] = (upright_heic[:ispe] + struct.pack(">II", w, h) +
                                           upright_heic[ispe + 8:])
    # Broken EXIF blocks on ok_scene.jpg's pixels: ignored, so its dice are where they were.
    for name, tiff in malformed_exif_blocks().items():
        files[f"exif_malformed_{name}.jpg"] = with_app1(small_jpeg, exif_app1(tiff))
    # An APP1 whose length runs past the end of the file.
    files["bad_exif_app1_past_end.jpg"] = small_jpeg[:2] + b"\xff\xe1\xff\xf0Exif\0\0II*\0"
    return files


def main():
    os.makedirs(OUT, exist_ok=True)
    files = {**image_files(), **json_files()}
    for name, data in sorted(files.items()):
        with open(os.path.join(OUT, name), "wb") as out:
            out.write(data)
    total = sum(len(data) for data in files.values())
    print(f"{len(files)} files, {total} bytes in {OUT}")


if __name__ == "__main__":
    main()
