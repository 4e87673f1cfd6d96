"""What makes a figure fit for a talk, measured on the rendered figure (issue 36, item 4): no two pieces of
text overlap and no text or legend covers a panel not its own (matplotlib's bounding boxes after drawing), and
every tick label has at most three significant digits."""

from __future__ import annotations

import re

from matplotlib.transforms import Bbox

#: Pixels two boxes may share along an edge before they count as overlapping (anti-aliasing).
TOLERANCE = 1.0


def _shrunk(box: Bbox) -> Bbox:
    return Bbox.from_extents(box.x0 + TOLERANCE, box.y0 + TOLERANCE, box.x1 - TOLERANCE, box.y1 - TOLERANCE)


def laid_out(fig):
    """``fig`` with every artist placed and every tick label written (a draw pass that rasterises nothing),
    unless nothing changed since its last draw: the checks below read positions and texts, not pixels, so a
    figure checked twice is drawn once."""
    if fig.stale:
        fig.draw_without_rendering()
    return fig


def _overlap(a: Bbox, b: Bbox) -> bool:
    a, b = _shrunk(a), _shrunk(b)
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def overlaps(fig) -> list[str]:
    """Every pair of pieces that overlap: the figure's title, texts (the footer) and legend, each panel's
    title and axis labels, each legend entry's text, and each panel's plotting area."""
    laid_out(fig)
    renderer = fig.canvas.get_renderer()
    axes = [ax for ax in fig.axes if ax.axison]
    texts: list[tuple[str, int | None, Bbox]] = []  # (name, owning panel, box)
    if fig._suptitle is not None and fig._suptitle.get_text():
        texts.append(("figure title", None, fig._suptitle.get_window_extent(renderer)))
    for n, text in enumerate(fig.texts):
        if text is not fig._suptitle and text.get_text().strip():
            texts.append((f"figure text {n}", None, text.get_window_extent(renderer)))
    for legend in fig.legends:
        texts.append(("legend", None, legend.get_window_extent(renderer)))
    for i, ax in enumerate(axes):
        for name, text in (("title", ax.title), ("x label", ax.xaxis.label), ("y label", ax.yaxis.label)):
            if text.get_text().strip():
                texts.append((f"panel {i} {name}", i, text.get_window_extent(renderer)))
    found = []
    for a in range(len(texts)):
        for b in range(a + 1, len(texts)):
            if _overlap(texts[a][2], texts[b][2]):
                found.append(f"{texts[a][0]} overlaps {texts[b][0]}")
    for i, ax in enumerate(axes):
        area = ax.get_window_extent(renderer)
        for name, owner, box in texts:
            if owner != i and _overlap(area, box):
                found.append(f"{name} covers panel {i}")
    for legend in fig.legends:
        entries = [t.get_window_extent(renderer) for t in legend.get_texts() if t.get_text().strip()]
        for a in range(len(entries)):
            for b in range(a + 1, len(entries)):
                if _overlap(entries[a], entries[b]):
                    found.append(f"legend entries {a} and {b} overlap")
    return found


def significant_digits(label: str) -> int:
    """Significant digits of a tick label's mantissa: ``4.02486×10^{-1}`` → 6, ``30000`` → 1, ``0.25`` → 2."""
    text = label.replace("−", "-").replace("$", "").replace("\\mathdefault{", "").replace("}", "")
    mantissa = re.split(r"\\times|×|[eE]", text)[0]
    if re.fullmatch(r"\s*-?10\^\{?-?\d+\s*", text):  # 10^k
        return 1
    digits = re.sub(r"[^0-9]", "", mantissa).lstrip("0")
    if "." not in mantissa:
        digits = digits.rstrip("0")
    return len(digits)


def tick_problems(fig) -> list[str]:
    """Tick labels drawn with more than three significant digits."""
    laid_out(fig)
    found = []
    for i, ax in enumerate(ax for ax in fig.axes if ax.axison):
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            for tick in axis.get_majorticklabels():
                position = tick.get_position()[0 if axis is ax.xaxis else 1]
                if tick.get_visible() and tick.get_text() and lo <= position <= hi:
                    if significant_digits(tick.get_text()) > 3:
                        found.append(f"panel {i}: tick label {tick.get_text()!r}")
    return found
