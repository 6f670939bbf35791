"""
The SDK's transport: auth, JSON envelopes, retries of a 429 or 503 honouring Retry-After,
timeouts, typed errors, and polling until a resource is finished. The client (./client.py) and
the resources (./resources/) are thin typed calls on top of it. `urllib.request` only.
"""

import email.utils
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Tuple, TypeVar, cast

from .errors import EdgeshotError
from .types import Meta

__version__ = "0.1.0"

T = TypeVar("T")
Query = Mapping[str, Any]

#: A 429 or 503 with one of these codes is final: waiting does not help.
NOT_RETRYABLE = frozenset({"USAGE_EXCEEDED", "CONFIGURATION_ERROR"})


class Response:
    """An answer read whole: status, headers (lower-cased names) and body bytes."""

    def __init__(self, status: int, headers: Dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body


class Data(Dict[str, Any]):
    """A JSON answer's `data`, with the envelope's `meta` (`requestId`, `usage`) as `.meta`."""

    meta: Meta


def meta_of(result: Mapping[str, Any]) -> Meta:
    """The envelope's `meta` (`requestId`, `usage`) of a JSON call's result."""
    meta = getattr(result, "meta", None)
    if meta is None:
        raise TypeError("not the result of an Edgeshot JSON call")
    return cast(Meta, meta)


def request_body(request: Optional[Mapping[str, Any]], fields: Mapping[str, Any], **fixed: Any) -> Dict[str, Any]:
    """A request body: the TypedDict given, keyword fields over it, then what the call fixes."""
    return {**(request or {}), **fields, **fixed}


def retry_after_seconds(value: Optional[str]) -> Optional[float]:
    """`Retry-After` as seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def _envelope(body: bytes) -> Optional[Dict[str, Any]]:
    try:
        parsed = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return parsed if isinstance(parsed, dict) else None


def _part(env: Mapping[str, Any], name: str) -> Dict[str, Any]:
    """An envelope's `error` or `meta` object; empty when absent or not an object."""
    part = env.get(name)
    return part if isinstance(part, dict) else {}


def _error(res: Response, env: Mapping[str, Any], fallback: str) -> EdgeshotError:
    """The EdgeshotError an answer's envelope describes; `fallback` is the message it lacks."""
    error = _part(env, "error")
    return EdgeshotError(
        code=str(error.get("code") or "INVALID_RESPONSE"),
        message=str(error.get("message") or fallback),
        status=res.status,
        details=error.get("details") or [],
        request_id=_part(env, "meta").get("requestId") or res.headers.get("x-request-id"),
        retry_after=retry_after_seconds(res.headers.get("retry-after")),
    )


def error_from(res: Response) -> EdgeshotError:
    """The EdgeshotError of a non-2xx answer, from its envelope when it has one."""
    return _error(res, _envelope(res.body) or {}, f"HTTP {res.status}")


class Transport:
    def __init__(
        self,
        api_key: str,
        base_url: str,
        timeout: float = 120.0,
        max_retries: int = 2,
        max_retry_after: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not api_key:
            raise ValueError("api_key is required")
        if not base_url:
            raise ValueError("base_url is required")
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_after = max_retry_after
        self.sleep = sleep
        self.user_agent = f"edgeshot-python/{__version__}"

    def _open(
        self,
        url: str,
        method: str,
        headers: Optional[Mapping[str, str]] = None,
        payload: Optional[bytes] = None,
    ) -> Response:
        """One HTTP exchange with our user-agent; any status is an answer, no answer an EdgeshotError."""
        request = urllib.request.Request(
            url, data=payload, headers={**(headers or {}), "user-agent": self.user_agent}, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as res:
                return Response(res.status, _headers(res.headers.items()), res.read())
        except urllib.error.HTTPError as err:
            body = err.read() if err.fp is not None else b""
            return Response(err.code, _headers(err.headers.items()), body)
        except (socket.timeout, TimeoutError) as err:
            raise EdgeshotError("TIMEOUT", f"No answer within {self.timeout} s: {err}", 0) from err
        except urllib.error.URLError as err:
            if isinstance(err.reason, (socket.timeout, TimeoutError)):
                raise EdgeshotError("TIMEOUT", f"No answer within {self.timeout} s", 0) from err
            raise EdgeshotError("NETWORK_ERROR", str(err.reason), 0) from err
        except OSError as err:
            raise EdgeshotError("NETWORK_ERROR", str(err), 0) from err

    def send(
        self,
        method: str,
        path: str,
        body: Any = None,
        query: Optional[Query] = None,
        idempotency_key: Optional[str] = None,
    ) -> Response:
        """One authenticated request; 429 and 503 answers are retried after their Retry-After."""
        url = self.base_url + path
        params = [(k, _query_value(v)) for k, v in (query or {}).items() if v is not None]
        if params:
            url += "?" + urllib.parse.urlencode(params)
        headers = {"authorization": f"Bearer {self.api_key}", "accept": "application/json, */*"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode("utf-8")
            headers["content-type"] = "application/json"
        if idempotency_key is not None:
            headers["idempotency-key"] = idempotency_key
        attempt = 0
        while True:
            res = self._open(url, method, headers, payload)
            if 200 <= res.status < 300:
                return res
            error = error_from(res)
            retryable = res.status in (429, 503) and error.code not in NOT_RETRYABLE
            if not retryable or attempt >= self.max_retries:
                raise error
            attempt += 1
            wait = error.retry_after if error.retry_after is not None else 1.0
            self.sleep(min(wait, self.max_retry_after))

    def json(
        self,
        method: str,
        path: str,
        body: Any = None,
        query: Optional[Query] = None,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        """One JSON request: the envelope's data (a `Data`, with `.meta`)."""
        res = self.send(method, path, body, query, idempotency_key)
        env = _envelope(res.body)
        if env is None:
            raise EdgeshotError("INVALID_RESPONSE", "Not JSON.", res.status)
        data = env.get("data")
        if env.get("success") is not True or not isinstance(data, dict):
            raise _error(res, env, "No data.")
        result = Data(data)
        result.meta = cast(Meta, _part(env, "meta"))
        return result

    def fetch_signed(self, url: str) -> Response:
        """GET a signed URL of this service (no auth); a refusal becomes an EdgeshotError."""
        res = self._open(url, "GET")
        if not 200 <= res.status < 300:
            raise error_from(res)
        return res

    def poll(
        self,
        read: Callable[[], T],
        done: Callable[[T], bool],
        interval: float,
        timeout: float,
    ) -> T:
        """Reads until `done` holds, or raises TIMEOUT after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            value = read()
            if done(value):
                return value
            if time.monotonic() >= deadline:
                raise EdgeshotError("TIMEOUT", f"Still not finished after {timeout} s.", 0)
            self.sleep(interval)


def _headers(items: Iterable[Tuple[str, str]]) -> Dict[str, str]:
    return {k.lower(): v for k, v in items}


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
