"""Site monitors: a whole site checked on a schedule, each page compared with its baseline.

Created (or dry-run), read, listed, changed, paused, resumed, deleted, checked now; a check read,
awaited, and its pages (new, removed, changed or failed, with their differences) paged through.
`create()` and `dry_run()` are one endpoint (POST /v1/monitors) answering two shapes; they are
two calls so that each has one return type.
"""

import urllib.parse
from typing import Any, Iterator, Optional

from .._transport import Transport, request_body
from ..types import (
    DeleteMonitorResult,
    GetMonitorCheckPagesResult,
    ListMonitorChecksResult,
    ListMonitorsResult,
    Monitor,
    MonitorCheckOutput,
    MonitorCheckPageOutput,
    MonitorDryRun,
    MonitorPatch,
    MonitorRequest,
)

#: The statuses a check ends in: nothing changes after them.
FINAL = frozenset({"completed", "cancelled", "failed"})


def _path(monitor_id: str) -> str:
    return f"/v1/monitors/{urllib.parse.quote(monitor_id, safe='')}"


def _check_path(monitor_id: str, check_id: str) -> str:
    return f"{_path(monitor_id)}/checks/{urllib.parse.quote(check_id, safe='')}"


class Monitors:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(
        self,
        request: Optional[MonitorRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> Monitor:
        """POST /v1/monitors (201): its first check starts now and sets the baseline, unless `paused`."""
        body = request_body(request, fields)
        body.pop("dryRun", None)
        monitor: Monitor = self._t.json("POST", "/v1/monitors", body, idempotency_key=idempotency_key)
        return monitor

    def dry_run(self, request: Optional[MonitorRequest] = None, **fields: Any) -> MonitorDryRun:
        """POST /v1/monitors with `dryRun: true`: nothing created or charged.

        The URLs a check would cover now, and its credits per check and per month.
        """
        answer: MonitorDryRun = self._t.json("POST", "/v1/monitors", request_body(request, fields, dryRun=True))
        return answer

    def get(self, monitor_id: str) -> Monitor:
        """GET /v1/monitors/{monitorId}: settings (defaults filled in), schedule, last check, feed URL."""
        monitor: Monitor = self._t.json("GET", _path(monitor_id))
        return monitor

    def list(
        self, status: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> ListMonitorsResult:
        """GET /v1/monitors: newest first, `{items, nextCursor}`; `status` active or paused."""
        page: ListMonitorsResult = self._t.json(
            "GET", "/v1/monitors", query={"status": status, "limit": limit, "cursor": cursor}
        )
        return page

    def update(self, monitor_id: str, change: Optional[MonitorPatch] = None, **fields: Any) -> Monitor:
        """PATCH /v1/monitors/{monitorId}: any setting but the site; None clears `name` and `webhookUrl`."""
        monitor: Monitor = self._t.json("PATCH", _path(monitor_id), request_body(change, fields))
        return monitor

    def delete(self, monitor_id: str) -> DeleteMonitorResult:
        """DELETE /v1/monitors/{monitorId}: the monitor, its checks and their pages, and its baselines."""
        deleted: DeleteMonitorResult = self._t.json("DELETE", _path(monitor_id))
        return deleted

    def pause(self, monitor_id: str) -> Monitor:
        """No scheduled check runs until it is resumed (`check()` still does)."""
        monitor: Monitor = self._t.json("POST", f"{_path(monitor_id)}/pause")
        return monitor

    def resume(self, monitor_id: str) -> Monitor:
        """The schedule starts again, counted from now."""
        monitor: Monitor = self._t.json("POST", f"{_path(monitor_id)}/resume")
        return monitor

    def check(self, monitor_id: str) -> MonitorCheckOutput:
        """POST /v1/monitors/{monitorId}/checks (202): a check now, beside the schedule.

        Await it with `wait_for_check()`. A check already queued or running is 409
        CHECK_IN_PROGRESS.
        """
        check: MonitorCheckOutput = self._t.json("POST", f"{_path(monitor_id)}/checks")
        return check

    def checks(
        self,
        monitor_id: str,
        status: Optional[str] = None,
        limit: Optional[int] = None,
        cursor: Optional[str] = None,
    ) -> ListMonitorChecksResult:
        """GET …/checks: newest first, within the plan's retention, `{items, nextCursor}`."""
        page: ListMonitorChecksResult = self._t.json(
            "GET",
            f"{_path(monitor_id)}/checks",
            query={"status": status, "limit": limit, "cursor": cursor},
        )
        return page

    def get_check(self, monitor_id: str, check_id: str) -> MonitorCheckOutput:
        """GET …/checks/{checkId}: status, trigger, counts, credits used."""
        check: MonitorCheckOutput = self._t.json("GET", _check_path(monitor_id, check_id))
        return check

    def pages(
        self,
        monitor_id: str,
        check_id: str,
        status: Optional[str] = None,
        limit: int = 100,
        cursor: Optional[str] = None,
    ) -> Iterator[MonitorCheckPageOutput]:
        """The check's pages that were not unchanged, one at a time, in the order they were checked.

        A generator over GET …/checks/{checkId}/pages (`limit` pages a request, 1–100; `status`
        new, removed, changed, failed or unchanged), following `nextCursor` until it is None.
        Unchanged pages are counted, not listed. On a running check it ends at the last page
        checked so far; after `wait_for_check()` it yields every page of the check.
        """
        while True:
            answer: GetMonitorCheckPagesResult = self._t.json(
                "GET",
                f"{_check_path(monitor_id, check_id)}/pages",
                query={"status": status, "limit": limit, "cursor": cursor},
            )
            yield from answer["pages"]
            cursor = answer["nextCursor"]
            if cursor is None:
                return

    def wait_for_check(
        self, monitor_id: str, check_id: str, interval: float = 2.0, timeout: float = 600.0
    ) -> MonitorCheckOutput:
        """Polls `get_check()` until the check completed, was cancelled or failed (check `status`)."""
        return self._t.poll(
            lambda: self.get_check(monitor_id, check_id),
            lambda check: check["status"] in FINAL,
            interval,
            timeout,
        )
