"""A token bucket: ``rate`` messages per second sustained, ``burst`` at once.

>>> bucket = TokenBucket(rate=1.0, burst=2, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations


class TokenBucket:
    """Allows a message when a token is left; tokens refill at ``rate`` per second."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = now

    def take(self, now: float) -> bool:
        """Spend a token at time ``now`` if one is left."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
