/** Code pasted by the tests: written for them, a small job queue in Python. */
export const QUEUE_PY = `import heapq
import threading
import time
from dataclasses import dataclass, field
from typing import Callable


@dataclass(order=True)
class Job:
    run_at: float
    name: str = field(compare=False)
    action: Callable[[], None] = field(compare=False)
    attempts: int = field(default=0, compare=False)


class JobQueue:
    def __init__(self, max_attempts: int = 3) -> None:
        self.max_attempts = max_attempts
        self._heap: list[Job] = []
        self._lock = threading.Lock()
        self._wakeup = threading.Event()
        self.failed: list[str] = []

    def schedule(self, name: str, action: Callable[[], None], delay: float = 0.0) -> None:
        with self._lock:
            heapq.heappush(self._heap, Job(time.monotonic() + delay, name, action))
        self._wakeup.set()

    def _next_due(self) -> Job | None:
        with self._lock:
            if self._heap and self._heap[0].run_at <= time.monotonic():
                return heapq.heappop(self._heap)
        return None

    def run_pending(self) -> int:
        ran = 0
        while (job := self._next_due()) is not None:
            try:
                job.action()
                ran += 1
            except Exception:
                job.attempts += 1
                if job.attempts >= self.max_attempts:
                    self.failed.append(job.name)
                else:
                    delay = 2 ** job.attempts
                    with self._lock:
                        job.run_at = time.monotonic() + delay
                        heapq.heappush(self._heap, job)
        return ran

    def wait(self, timeout: float) -> bool:
        fired = self._wakeup.wait(timeout)
        self._wakeup.clear()
        return fired


def drain(queue: JobQueue, deadline: float) -> int:
    total = 0
    while time.monotonic() < deadline:
        total += queue.run_pending()
        queue.wait(0.05)
    return total
`;
