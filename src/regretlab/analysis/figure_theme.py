"""The regime figures' look: seaborn's ``set_theme(style="whitegrid", context="paper")`` as plain matplotlib
settings, so that a summary job draws without importing seaborn, which imports ``scipy.stats`` (half a second
in each of the ~30 jobs that draw; issue 33's five minutes). ``tests/analysis/test_figures.py`` checks
that :func:`apply_theme` leaves every rcParam as seaborn's call does, but ``image.cmap`` (seaborn's
``rocket``, registered when seaborn is imported; no figure draws an image); seaborn's remapping of the
one-letter colour codes is left out too (no figure uses them: the same test draws a regime's figure both ways
and compares the bytes).
"""

from __future__ import annotations

import matplotlib
from cycler import cycler

#: seaborn's ``axes_style("whitegrid")`` and ``plotting_context("paper")``, but ``image.cmap``.
THEME = {
    "figure.facecolor": "white",
    "axes.labelcolor": ".15",
    "xtick.direction": "out",
    "ytick.direction": "out",
    "xtick.color": ".15",
    "ytick.color": ".15",
    "axes.axisbelow": True,
    "grid.linestyle": "-",
    "text.color": ".15",
    "font.family": ["sans-serif"],
    "font.sans-serif": ["Arial", "DejaVu Sans", "Liberation Sans", "Bitstream Vera Sans", "sans-serif"],
    "lines.solid_capstyle": "round",
    "patch.edgecolor": "w",
    "patch.force_edgecolor": True,
    "xtick.top": False,
    "ytick.right": False,
    "axes.grid": True,
    "axes.facecolor": "white",
    "axes.edgecolor": ".8",
    "grid.color": ".8",
    "axes.spines.left": True,
    "axes.spines.bottom": True,
    "axes.spines.right": True,
    "axes.spines.top": True,
    "xtick.bottom": False,
    "ytick.left": False,
    "axes.linewidth": 1.0,
    "grid.linewidth": 0.8,
    "lines.linewidth": 1.2000000000000002,
    "lines.markersize": 4.800000000000001,
    "patch.linewidth": 0.8,
    "xtick.major.width": 1.0,
    "ytick.major.width": 1.0,
    "xtick.minor.width": 0.8,
    "ytick.minor.width": 0.8,
    "xtick.major.size": 4.800000000000001,
    "ytick.major.size": 4.800000000000001,
    "xtick.minor.size": 3.2,
    "ytick.minor.size": 3.2,
    "font.size": 9.600000000000001,
    "axes.labelsize": 9.600000000000001,
    "axes.titlesize": 9.600000000000001,
    "xtick.labelsize": 8.8,
    "ytick.labelsize": 8.8,
    "legend.fontsize": 8.8,
    "legend.title_fontsize": 9.600000000000001,
}

#: seaborn's ``deep`` palette, the colour cycle ``set_theme`` sets.
DEEP = (
    (0.2980392156862745, 0.4470588235294118, 0.6901960784313725),
    (0.8666666666666667, 0.5176470588235295, 0.3215686274509804),
    (0.3333333333333333, 0.6588235294117647, 0.40784313725490196),
    (0.7686274509803922, 0.3058823529411765, 0.3215686274509804),
    (0.5058823529411764, 0.4470588235294118, 0.7019607843137254),
    (0.5764705882352941, 0.47058823529411764, 0.3764705882352941),
    (0.8549019607843137, 0.5450980392156862, 0.7647058823529411),
    (0.5490196078431373, 0.5490196078431373, 0.5490196078431373),
    (0.8, 0.7254901960784313, 0.4549019607843137),
    (0.39215686274509803, 0.7098039215686275, 0.803921568627451),
)


def apply_theme() -> None:
    """Set the figures' rcParams (module docstring): ``sns.set_theme(style="whitegrid", context="paper")``."""
    matplotlib.rcParams.update(THEME)
    matplotlib.rcParams["axes.prop_cycle"] = cycler("color", list(DEEP))
