#!/usr/bin/env python3
"""Renders one line of text with Pango + cairo, as the reference for Damask's text tests.

Usage: pango-render.py OUT.png FAMILY PIXEL_SIZE WIDTH HEIGHT X BASELINE_Y TEXT

Writes an ARGB32 PNG (black text on transparent) with the line's baseline starting at
(X, BASELINE_Y), and prints one line per Pango run: the font family it used. Glyph
positions are not rounded and hinting is slight with unhinted metrics, which is how Damask
positions and renders glyphs. The context's language is English (as under an en_US
locale, whatever this process's locale is): a script without its own language in English
then picks fonts for that script's sample language (ja for kana, ko for Hangul, …), as
Damask does; under the C locale Pango would ask for no language at all.
"""
import sys

import gi

gi.require_version("Pango", "1.0")
gi.require_version("PangoCairo", "1.0")
import cairo  # noqa: E402
from gi.repository import Pango, PangoCairo  # noqa: E402


def main() -> int:
    if len(sys.argv) != 9:
        print(__doc__, file=sys.stderr)
        return 2
    out, family, size, width, height, x, baseline, text = sys.argv[1:]
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, int(width), int(height))
    context = cairo.Context(surface)
    options = cairo.FontOptions()
    options.set_antialias(cairo.ANTIALIAS_GRAY)
    options.set_hint_style(cairo.HINT_STYLE_SLIGHT)
    options.set_hint_metrics(cairo.HINT_METRICS_OFF)
    layout = PangoCairo.create_layout(context)
    pango_context = layout.get_context()
    pango_context.set_language(Pango.Language.from_string("en"))
    PangoCairo.context_set_font_options(pango_context, options)
    if hasattr(pango_context, "set_round_glyph_positions"):
        pango_context.set_round_glyph_positions(False)
    layout.context_changed()
    description = Pango.FontDescription.from_string(family)
    description.set_absolute_size(float(size) * Pango.SCALE)
    layout.set_font_description(description)
    layout.set_text(text, -1)
    context.set_source_rgba(0, 0, 0, 1)
    top = float(baseline) - layout.get_baseline() / Pango.SCALE
    context.move_to(float(x), top)
    PangoCairo.show_layout(context, layout)
    surface.write_to_png(out)
    line = layout.get_line_readonly(0)
    for run in line.runs or []:
        print(run.item.analysis.font.describe().get_family())
    return 0


if __name__ == "__main__":
    sys.exit(main())
