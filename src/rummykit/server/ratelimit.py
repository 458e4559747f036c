"""Rate limits: a token bucket, buckets per client address, and strikes that fade.

>>> bucket = TokenBucket(rate=1.0, burst=2, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)]
[True, True, False, True]
>>> strikes = Strikes(fade_per_second=1.0)
>>> [strikes.add(0.0), strikes.add(0.0), strikes.add(5.0)]
[1.0, 2.0, 1.0]
"""

from __future__ import annotations


class TokenBucket:
    """Allows a message when a token is left; tokens refill at ``rate`` per second."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = now

    def refill(self, now: float) -> None:
        """Add the tokens earned since the last call."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float) -> bool:
        """Spend a token at time ``now`` if one is left."""
        self.refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token (0 when one is left)."""
        return max(0.0, (1.0 - self.tokens) / self.rate)

    def full(self, now: float) -> bool:
        """Whether the bucket has refilled completely (its owner has been quiet)."""
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class AddressBuckets:
    """One :class:`TokenBucket` per key (a client address), at most ``max_keys`` kept:
    buckets that refilled are dropped first, then the oldest.

    >>> limits = AddressBuckets(rate=1.0, burst=1, max_keys=2)
    >>> [limits.take("a", 0.0), limits.take("a", 0.0), limits.take("b", 0.0)]
    [True, False, True]
    >>> limits.retry_after("a", 0.5)
    0.5
    """

    def __init__(self, rate: float, burst: int, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str, now: float) -> bool:
        """Spend one of ``key``'s tokens if it has one."""
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.max_keys:
                self._prune(now)
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, now)
        return bucket.take(now)

    def retry_after(self, key: str, now: float) -> float:
        """Seconds until ``key`` has a token again."""
        bucket = self.buckets.get(key)
        if bucket is None:
            return 0.0
        bucket.refill(now)
        return bucket.wait()

    def _prune(self, now: float) -> None:
        self.buckets = {k: b for k, b in self.buckets.items() if not b.full(now)}
        if len(self.buckets) >= self.max_keys:  # all busy: forget the oldest half
            keep = list(self.buckets.items())[len(self.buckets) // 2:]
            self.buckets = dict(keep)


class Strikes:
    """A count of refused messages that fades by ``fade_per_second``: a client that
    overruns its limit now and then is never cut off, one that keeps at it is."""

    def __init__(self, fade_per_second: float) -> None:
        self.fade = fade_per_second
        self.count = 0.0
        self.stamp: float | None = None

    def add(self, now: float) -> float:
        """Count one strike at ``now``; the count after it."""
        if self.stamp is not None:
            self.count = max(0.0, self.count - (now - self.stamp) * self.fade)
        self.stamp = now
        self.count += 1.0
        return self.count


class Quotas:
    """What one client address may still create: tables and record uploads, each up to
    ``quota`` at once and refilled evenly over ``seconds``."""

    def __init__(self, tables: int, uploads: int, seconds: float) -> None:
        self.tables = AddressBuckets(tables / seconds, tables)
        self.uploads = AddressBuckets(uploads / seconds, uploads)
