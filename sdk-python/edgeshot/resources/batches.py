"""Batches: many captures submitted together, read, listed, or awaited."""

import urllib.parse
from typing import Optional

from .._transport import Transport
from ..types import Batch, ListBatchesResult


class Batches:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def get(self, batch_id: str) -> Batch:
        """GET /v1/batches/{batchId}."""
        batch: Batch = self._t.json("GET", f"/v1/batches/{urllib.parse.quote(batch_id, safe='')}")
        return batch

    def list(
        self, status: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> ListBatchesResult:
        """GET /v1/batches: newest first, `{items, nextCursor}`."""
        page: ListBatchesResult = self._t.json(
            "GET", "/v1/batches", query={"status": status, "limit": limit, "cursor": cursor}
        )
        return page

    def wait(self, batch_id: str, interval: float = 2.0, timeout: float = 600.0) -> Batch:
        """Polls until every job of the batch finished (`status` completed; see `outcome`)."""
        return self._t.poll(
            lambda: self.get(batch_id),
            lambda batch: batch["status"] == "completed",
            interval,
            timeout,
        )
