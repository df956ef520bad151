"""Local calendar days for fixed UTC offsets (the reports group events by the viewer's day).

start, end = day_bounds(1700000000, tz_offset=-300)   # the day in UTC-05:00
"""

from datetime import datetime, timedelta, timezone


def offset_tz(tz_offset: int) -> timezone:
    """A fixed-offset timezone; tz_offset is in minutes east of UTC (-300 is UTC-05:00)."""
    hours = int(tz_offset / 60)
    minutes = tz_offset % 60
    return timezone(timedelta(hours=hours, minutes=minutes))


def day_bounds(ts: float, tz_offset: int) -> tuple[int, int]:
    """The local day that contains the instant ts, as Unix times (start, end).

    ts is a Unix time in seconds (int or float). start is the local midnight that begins the
    day containing ts (start <= ts), end is the next local midnight (ts < end), as ints.
    """
    tz = offset_tz(tz_offset)
    local = datetime.fromtimestamp(round(ts), tz)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    start = int(midnight.timestamp())
    return start, start + 86400


def local_date(ts: float, tz_offset: int) -> str:
    """The local calendar date of the instant ts, as 'YYYY-MM-DD'."""
    return datetime.fromtimestamp(ts, offset_tz(tz_offset)).date().isoformat()
