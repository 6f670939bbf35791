"""Crawls: a site rendered page by page, started, read, paged through, cancelled, listed, awaited."""

import urllib.parse
from typing import Any, Iterator, Optional

from .._transport import Transport, request_body
from ..types import (
    Crawl,
    CrawlDryRun,
    CrawlPage,
    CrawlRequest,
    CrawlStarted,
    CrawlSummary,
    GetCrawlPagesResult,
    ListCrawlsResult,
)

#: The statuses a crawl ends in: nothing changes after them.
FINAL = frozenset({"completed", "cancelled", "failed"})


def _path(crawl_id: str) -> str:
    return f"/v1/crawl/{urllib.parse.quote(crawl_id, safe='')}"


class Crawls:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def start(
        self,
        request: Optional[CrawlRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> CrawlStarted:
        """POST /v1/crawl: queued (202); poll `get()` or `wait()`, read results with `pages()`."""
        body = request_body(request, fields)
        started: CrawlStarted = self._t.json("POST", "/v1/crawl", body, idempotency_key=idempotency_key)
        return started

    def get(self, crawl_id: str) -> Crawl:
        """GET /v1/crawl/{crawlId}: status, counts, and the first results with `nextCursor`."""
        crawl: Crawl = self._t.json("GET", _path(crawl_id))
        return crawl

    def dry_run(self, request: Optional[CrawlRequest] = None, **fields: Any) -> CrawlDryRun:
        """POST /v1/crawl with `dryRun`: the URLs known now and the credits; nothing started."""
        body = {**request_body(request, fields), "dryRun": True}
        dry: CrawlDryRun = self._t.json("POST", "/v1/crawl", body)
        return dry

    def pages(
        self,
        crawl_id: str,
        limit: int = 100,
        cursor: Optional[str] = None,
        status: Optional[str] = None,
    ) -> Iterator[CrawlPage]:
        """Every result finished so far, one page at a time, in the order pages finished.

        A generator over GET /v1/crawl/{crawlId}/pages (`limit` results a request, 1–100),
        following `nextCursor` until it is None; `status` keeps "rendered", "skipped" or
        "failed" pages. On a running crawl it ends at the last page finished so far; after
        `wait()` it yields every page of the crawl.
        """
        return self._results(f"{_path(crawl_id)}/pages", limit, cursor, status)

    def errors(self, crawl_id: str, limit: int = 100, cursor: Optional[str] = None) -> Iterator[CrawlPage]:
        """GET /v1/crawl/{crawlId}/errors, every result: failed pages, and pages robots.txt or
        the URL guard refused or the credits left unrendered, each with its reason and `foundOn`."""
        return self._results(f"{_path(crawl_id)}/errors", limit, cursor, None)

    def _results(
        self, path: str, limit: int, cursor: Optional[str], status: Optional[str]
    ) -> Iterator[CrawlPage]:
        while True:
            answer: GetCrawlPagesResult = self._t.json(
                "GET", path, query={"limit": limit, "cursor": cursor, "status": status}
            )
            yield from answer["pages"]
            cursor = answer["nextCursor"]
            if cursor is None:
                return

    def cancel(self, crawl_id: str) -> CrawlSummary:
        """DELETE /v1/crawl/{crawlId}: nothing new starts; pages not rendered are not charged."""
        summary: CrawlSummary = self._t.json("DELETE", _path(crawl_id))
        return summary

    def list(
        self, status: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> ListCrawlsResult:
        """GET /v1/crawls: newest first, `{items, nextCursor}`."""
        page: ListCrawlsResult = self._t.json(
            "GET", "/v1/crawls", query={"status": status, "limit": limit, "cursor": cursor}
        )
        return page

    def wait(self, crawl_id: str, interval: float = 2.0, timeout: float = 600.0) -> Crawl:
        """Polls until the crawl completed, was cancelled or failed (check `status`)."""
        return self._t.poll(
            lambda: self.get(crawl_id),
            lambda crawl: crawl["status"] in FINAL,
            interval,
            timeout,
        )
