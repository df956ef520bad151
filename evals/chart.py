"""The report's chart: pass@1 per difficulty (and overall), one bar per job.

    write_chart({"job-a (gpt-5)": summary_a, "job-b (gemini)": summary_b}, Path("chart.png"))

The keys are the legend's labels.

matplotlib is imported here, lazily, and only its object-oriented API with the Agg canvas is
used (no pyplot global state, so it is safe in threads and needs no display). The figure size,
dpi and metadata are fixed so that the same data gives the same PNG bytes.
"""

from collections.abc import Mapping
from pathlib import Path

from evals.metrics import Summary, difficulty_names

WIDTH_IN, HEIGHT_IN, DPI = 8.0, 4.5, 100
"""The chart's size: 800 x 450 pixels."""


def write_chart(summaries: Mapping[str, Summary], path: Path) -> Path:
    """Draw grouped bars of pass@1 per difficulty for each job to `path` (a PNG) and return it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    groups = [*difficulty_names(summaries.values()), "overall"]
    fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    width = 0.8 / max(len(summaries), 1)
    for index, (label, summary) in enumerate(summaries.items()):
        values = [_pass_at_1(summary, group) for group in groups]
        xs = [i - 0.4 + width * (index + 0.5) for i in range(len(groups))]
        bars = ax.bar(xs, values, width, label=label)
        ax.bar_label(bars, fmt="%.2f", fontsize=8, padding=2)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("pass@1")
    ax.set_title("pass@1 by difficulty")
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    # No "Software" tag (it carries matplotlib's version): the bytes depend on the data only.
    fig.savefig(path, format="png", dpi=DPI, metadata={"Software": None})
    return path


def _pass_at_1(summary: Summary, group: str) -> float:
    if group == "overall":
        return summary.pass_at_1
    found = summary.by_difficulty.get(group)
    return found.pass_at_1 if found else 0.0
