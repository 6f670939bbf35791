"""Jobs: async captures, read one by one, listed, or awaited."""

import urllib.parse
from typing import Optional

from .._transport import Transport
from ..types import Job, ListJobsResult


class Jobs:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def get(self, job_id: str) -> Job:
        """GET /v1/jobs/{jobId}."""
        job: Job = self._t.json("GET", f"/v1/jobs/{urllib.parse.quote(job_id, safe='')}")
        return job

    def list(
        self, status: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> ListJobsResult:
        """GET /v1/jobs: newest first, `{items, nextCursor}`."""
        page: ListJobsResult = self._t.json(
            "GET", "/v1/jobs", query={"status": status, "limit": limit, "cursor": cursor}
        )
        return page

    def wait(self, job_id: str, interval: float = 2.0, timeout: float = 300.0) -> Job:
        """Polls until the job completed or failed (a failed job is returned: check `status`)."""
        return self._t.poll(
            lambda: self.get(job_id),
            lambda job: job["status"] in ("completed", "failed"),
            interval,
            timeout,
        )
