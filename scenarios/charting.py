"""What every scenario's report charts share: matplotlib set up for small, sharp SVG text.

Charts return an SVG string; text stays text (``svg.fonttype: none``) so charts are small, sharp
when printed, and searchable. Import matplotlib lazily: it costs about a second to load.
"""

from __future__ import annotations

import io
import threading

INK, MUTED, BRAND, ACCENT, OK, BAD, LINE = "#13232f", "#536471", "#0b4f6c", "#e07a1f", "#1f7a3a", "#b3261e", "#d5dde3"


_setting_up = threading.Lock()
_ready = None


def pyplot():
    """matplotlib's pyplot, headless, with the reports' fonts and colours. Set up once, by one
    thread at a time: a report worker runs two reports at once, and a thread choosing the
    backend while another was still importing pyplot found it half made and failed its report
    ("partially initialized module 'matplotlib.pyplot'")."""
    global _ready
    with _setting_up:
        if _ready is None:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt

            plt.rcParams.update(
                {
                    "svg.fonttype": "none",
                    "font.family": "DejaVu Sans",
                    "font.size": 9,
                    "axes.edgecolor": LINE,
                    "axes.labelcolor": INK,
                    "xtick.color": MUTED,
                    "ytick.color": MUTED,
                    "axes.spines.top": False,
                    "axes.spines.right": False,
                    "svg.hashsalt": "stormwise",
                }
            )
            _ready = plt
    return _ready


def svg(fig) -> str:
    """The figure as SVG text (closed afterwards), without a date so reruns are identical."""
    plt = pyplot()
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None}, dpi=150)
    plt.close(fig)
    text = out.getvalue()
    return text[text.index("<svg") :]
