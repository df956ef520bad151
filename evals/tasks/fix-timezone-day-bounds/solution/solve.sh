#!/usr/bin/env bash
# Two bugs: int(tz_offset / 60) truncates toward zero, so -570 became -8:30 instead of -9:30
# (timedelta(minutes=tz_offset) is exact); and round(ts) pushed instants just before midnight into
# the next day (fromtimestamp itself also rounds floats to microseconds). Midnights fall on whole
# seconds, so flooring ts and doing exact integer arithmetic is both simple and right.
set -euo pipefail
cat > dayutil.py <<'PY'
"""Local calendar days for fixed UTC offsets (the reports group events by the viewer's day).

    start, end = day_bounds(1700000000, tz_offset=-300)   # the day in UTC-05:00
"""

import math
from datetime import date, timedelta, timezone

DAY = 86400
EPOCH = date(1970, 1, 1)


def offset_tz(tz_offset: int) -> timezone:
    """A fixed-offset timezone; tz_offset is in minutes east of UTC (-300 is UTC-05:00)."""
    return timezone(timedelta(minutes=tz_offset))


def _local_seconds(ts: float, tz_offset: int) -> int:
    # Midnights fall on whole seconds, so flooring never moves ts to another day; Python's floor
    # division and modulo round toward -infinity, which is right before 1970 as well.
    return math.floor(ts) + tz_offset * 60


def day_bounds(ts: float, tz_offset: int) -> tuple[int, int]:
    """The local day that contains the instant ts, as Unix times (start, end).

    ts is a Unix time in seconds (int or float). start is the local midnight that begins the
    day containing ts (start <= ts), end is the next local midnight (ts < end), as ints.
    """
    local = _local_seconds(ts, tz_offset)
    start = local - local % DAY - tz_offset * 60
    return start, start + DAY


def local_date(ts: float, tz_offset: int) -> str:
    """The local calendar date of the instant ts, as 'YYYY-MM-DD'."""
    return (EPOCH + timedelta(days=_local_seconds(ts, tz_offset) // DAY)).isoformat()
PY
python3 -m unittest -q test_dayutil
