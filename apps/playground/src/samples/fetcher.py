"""Polite HTTP fetching for the crawler: per-host rate limits, retries and a small disk cache."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional
from urllib.parse import urlsplit

import requests

log = logging.getLogger(__name__)

RETRYABLE_STATUS = {429, 500, 502, 503, 504}
DEFAULT_TIMEOUT = 10.0


@dataclass
class TokenBucket:
    """Allows `rate` requests per second with bursts of up to `capacity`."""

    rate: float
    capacity: int
    tokens: float = field(init=False)
    updated: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = float(self.capacity)
        self.updated = time.monotonic()

    def take(self, clock: Callable[[], float] = time.monotonic) -> float:
        """Consume one token; return how long the caller must sleep first."""
        now = clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        wait = (1 - self.tokens) / self.rate
        self.tokens = 0.0
        return wait


class DiskCache:
    def __init__(self, root: Path, max_age: float = 3600.0) -> None:
        self.root = root
        self.max_age = max_age
        root.mkdir(parents=True, exist_ok=True)

    def _path(self, url: str) -> Path:
        digest = hashlib.sha256(url.encode("utf-8")).hexdigest()
        return self.root / digest[:2] / f"{digest}.json"

    def get(self, url: str) -> Optional[str]:
        path = self._path(url)
        if not path.exists():
            return None
        entry = json.loads(path.read_text("utf-8"))
        if time.time() - entry["stored"] > self.max_age:
            path.unlink(missing_ok=True)
            return None
        return entry["body"]

    def put(self, url: str, body: str) -> None:
        path = self._path(url)
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps({"stored": time.time(), "body": body}), "utf-8")


class FetchError(Exception):
    def __init__(self, url: str, status: Optional[int], attempts: int) -> None:
        super().__init__(f"giving up on {url} after {attempts} attempts (last status {status})")
        self.url = url
        self.status = status
        self.attempts = attempts


class Fetcher:
    def __init__(self, cache: DiskCache, rate: float = 2.0, max_retries: int = 4,
                 session: Optional[requests.Session] = None) -> None:
        self.cache = cache
        self.rate = rate
        self.max_retries = max_retries
        self.session = session or requests.Session()
        self.buckets: dict[str, TokenBucket] = {}

    def _bucket(self, url: str) -> TokenBucket:
        host = urlsplit(url).netloc.lower()
        if host not in self.buckets:
            self.buckets[host] = TokenBucket(rate=self.rate, capacity=5)
        return self.buckets[host]

    @staticmethod
    def backoff(attempt: int, retry_after: Optional[str]) -> float:
        """Seconds to wait before the next attempt (attempt counts from 1)."""
        if retry_after is not None and retry_after.isdigit():
            return min(float(retry_after), 30.0)
        return min(2 ** attempt + random.uniform(0, 1), 30.0)

    def get(self, url: str) -> str:
        cached = self.cache.get(url)
        if cached is not None:
            return cached
        status: Optional[int] = None
        for attempt in range(1, self.max_retries + 1):
            time.sleep(self._bucket(url).take())
            try:
                response = self.session.get(url, timeout=DEFAULT_TIMEOUT)
            except requests.ConnectionError as exc:
                log.warning("connection error for %s: %s", url, exc)
                time.sleep(self.backoff(attempt, None))
                continue
            status = response.status_code
            if status in RETRYABLE_STATUS:
                delay = self.backoff(attempt, response.headers.get("Retry-After"))
                log.info("%s returned %s, retrying in %.1fs", url, status, delay)
                time.sleep(delay)
                continue
            response.raise_for_status()
            body = response.text
            self.cache.put(url, body)
            return body
        raise FetchError(url, status, self.max_retries)
