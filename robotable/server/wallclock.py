"""The server's wall clock: every timestamp, clock deadline, grace period, invite and expiry reads
:func:`now`.

It is UTC time plus an offset that only tests move (``CLOCK.advance(seconds)``): a test sees a clock, a grace
period or an expiry run out at once instead of sleeping until it does, and a busy machine can never make
one run out before the test looks.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class WallClock:
    """UTC now, plus an offset that tests move forward."""

    def __init__(self) -> None:
        self.offset = timedelta()
        self.frozen: datetime | None = None

    def now(self) -> datetime:
        return (self.frozen or datetime.now(UTC)) + self.offset

    def freeze(self) -> None:
        """Stop real time from passing: from now on only :meth:`advance` moves the clock (tests only, for
        checks of exact clock readings that a busy machine's delays must not change)."""
        self.frozen = datetime.now(UTC)

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds`` (tests only)."""
        if seconds < 0:
            raise ValueError(f"time only moves forward, not by {seconds} s")
        self.offset += timedelta(seconds=seconds)

    def reset(self) -> None:
        """Back to real time (tests, when done)."""
        self.offset = timedelta()
        self.frozen = None


#: The one clock of the process.
CLOCK = WallClock()


def now() -> datetime:
    """The current UTC time (as :data:`CLOCK` tells it)."""
    return CLOCK.now()
