"""Helpers for tools/render_scenes.py: scene sampling, POV-Ray text, truth, JPEG/EXIF."""
