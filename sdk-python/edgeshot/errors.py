"""Every failed call surfaces as an `EdgeshotError` carrying the API's error envelope."""

from typing import List, Optional

from .types import ErrorDetail


class EdgeshotError(Exception):
    """A refused or failed call.

    `code` is the API's error code (`VALIDATION_ERROR`, `RATE_LIMITED`, … — constants in
    `edgeshot.types`), or `NETWORK_ERROR` (no answer), `TIMEOUT` (no answer in time, or a
    `wait()` that gave up; `status` 0 then) or `INVALID_RESPONSE` (an answer that is not the
    API's JSON envelope).
    """

    def __init__(
        self,
        code: str,
        message: str,
        status: int,
        details: Optional[List[ErrorDetail]] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(message)
        self.code: str = code
        self.message: str = message
        #: HTTP status; 0 when no response arrived.
        self.status: int = status
        #: Per-field problems (`path`, `message`), when the API gave them.
        self.details: List[ErrorDetail] = list(details or [])
        #: `meta.requestId` / `x-request-id`, for support.
        self.request_id: Optional[str] = request_id
        #: Seconds the API asked to wait (`Retry-After`), on 429 and 503.
        self.retry_after: Optional[float] = retry_after

    def __str__(self) -> str:
        where = f", request {self.request_id}" if self.request_id else ""
        return f"{self.code} (HTTP {self.status}{where}): {self.message}"

    def __repr__(self) -> str:
        return f"EdgeshotError(code={self.code!r}, status={self.status}, message={self.message!r}, request_id={self.request_id!r})"
