"""Writing a matplotlib figure as the workflow's files: its layout fixed (the same bytes in every process)
and saved atomically as PNG and PDF without timestamps. Used by every figure, of every layer."""

from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from regretlab.core.io import atomic_path  # noqa: E402

#: No software version or date in the files: the same figure is the same bytes.
PNG_METADATA = {"Software": None}
PDF_METADATA = {"Creator": None, "Producer": None, "CreationDate": None}


def freeze_layout(fig):
    """Solve the figure's constrained layout once and fix it, every position rounded to 10⁻⁶ of the figure:
    the solver's last bits depend on Python's string hashing (``PYTHONHASHSEED``), which would make the same
    table draw different bytes from one process to the next."""
    fig.draw_without_rendering()  # the layout engine runs; nothing is rasterised (the files draw it)
    for ax in fig.axes:
        ax.set_position([round(value, 6) for value in ax.get_position().bounds])
    fig.set_layout_engine("none")
    return fig


def save_figure(fig, png_path: str | os.PathLike, pdf_path: str | os.PathLike) -> None:
    """Write ``fig`` atomically as PNG (150 dpi) and PDF, without timestamps (the same bytes every run), and
    close it."""
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", dpi=150, metadata=PNG_METADATA)
    with atomic_path(pdf_path) as tmp:
        fig.savefig(tmp, format="pdf", metadata=PDF_METADATA)
    plt.close(fig)
