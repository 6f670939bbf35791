"""Watches: scheduled captures with change detection (watch.changed / watch.failed webhooks)."""

import urllib.parse
from typing import Optional

from .._transport import Transport
from ..types import (
    CreateWatchRequest,
    DeleteWatchResult,
    ListWatchesResult,
    ListWatchRunsResult,
    RunWatchResult,
    UpdateWatchRequest,
    Watch,
)


def _path(watch_id: str) -> str:
    return f"/v1/watches/{urllib.parse.quote(watch_id, safe='')}"


class Watches:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, request: CreateWatchRequest) -> Watch:
        """POST /v1/watches: its first run (the baseline) is due at once."""
        watch: Watch = self._t.json("POST", "/v1/watches", request)
        return watch

    def list(
        self, status: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> ListWatchesResult:
        page: ListWatchesResult = self._t.json(
            "GET", "/v1/watches", query={"status": status, "limit": limit, "cursor": cursor}
        )
        return page

    def get(self, watch_id: str) -> Watch:
        watch: Watch = self._t.json("GET", _path(watch_id))
        return watch

    def update(self, watch_id: str, change: UpdateWatchRequest) -> Watch:
        """PATCH /v1/watches/{watchId} (e.g. `{"paused": True}`)."""
        watch: Watch = self._t.json("PATCH", _path(watch_id), change)
        return watch

    def delete(self, watch_id: str) -> DeleteWatchResult:
        deleted: DeleteWatchResult = self._t.json("DELETE", _path(watch_id))
        return deleted

    def run(self, watch_id: str) -> RunWatchResult:
        """One run now; the schedule is not shifted."""
        queued: RunWatchResult = self._t.json("POST", f"{_path(watch_id)}/run")
        return queued

    def runs(
        self,
        watch_id: str,
        status: Optional[str] = None,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
    ) -> ListWatchRunsResult:
        """GET …/runs: newest first."""
        page: ListWatchRunsResult = self._t.json(
            "GET",
            f"{_path(watch_id)}/runs",
            query={"status": status, "limit": limit, "cursor": cursor},
        )
        return page
