"""
Receiving Edgeshot webhooks: `verify_webhook` checks a delivery, `sign_webhook` makes the
signature (to test your receiver). The format is the service's (src/webhooks/sign.ts):
`x-service-signature` = hex HMAC-SHA256 of `<x-service-timestamp>.<raw body>` under the
account's signing secret (`Edgeshot.account()["webhooks"]["signingSecret"]`), and the
timestamp (Unix seconds) must be within `tolerance` seconds of the receiver's clock.
"""

import hashlib
import hmac
import json
import re
import time
from typing import Any, Dict, Iterable, Mapping, Optional, Tuple, Union

_TIMESTAMP = re.compile(r"^[0-9]{1,12}$")

#: Seconds a delivery's timestamp may be away from the receiver's clock (the spec's 300).
DEFAULT_TOLERANCE = 300


class WebhookVerificationError(Exception):
    """A delivery that is not genuine or not fresh; `reason` says which check failed."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        #: missing_header, malformed_timestamp, stale_timestamp, bad_signature or malformed_body.
        self.reason = reason


Headers = Union[Mapping[str, str], Iterable[Tuple[str, str]]]


def _header(headers: Headers, name: str) -> Optional[str]:
    items = headers.items() if isinstance(headers, Mapping) else headers
    for key, value in items:
        if key.lower() == name:
            return value
    return None


def _raw(body: Union[bytes, bytearray, str]) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else bytes(body)


def sign_webhook(secret: str, timestamp: Union[int, str], body: Union[bytes, str]) -> str:
    """Hex HMAC-SHA256 of `<timestamp>.<raw body>` under `secret`."""
    message = f"{timestamp}.".encode("ascii") + _raw(body)
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def verify_webhook(
    body: Union[bytes, bytearray, str],
    headers: Headers,
    secret: str,
    tolerance: int = DEFAULT_TOLERANCE,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Checks a delivery and returns its parsed event (`event`, `jobId`, `status`, …).

    `body` is the RAW request body, exactly as received (verify before parsing); `headers`
    any mapping or list of pairs (names in any case). Raises WebhookVerificationError when a
    header is missing, the timestamp is malformed or outside `tolerance` seconds of `now`
    (default: this clock), or the signature differs (compared in constant time).
    """
    signature = _header(headers, "x-service-signature")
    timestamp = _header(headers, "x-service-timestamp")
    if not signature or not timestamp:
        raise WebhookVerificationError("missing_header", "x-service-signature or x-service-timestamp is missing")
    if not _TIMESTAMP.match(timestamp):
        raise WebhookVerificationError("malformed_timestamp", "x-service-timestamp is not Unix seconds")
    clock = time.time() if now is None else now
    if abs(int(clock) - int(timestamp)) > tolerance:
        raise WebhookVerificationError("stale_timestamp", f"the timestamp is more than {tolerance} s away")
    expected = sign_webhook(secret, timestamp, _raw(body))
    if not hmac.compare_digest(signature.strip().lower().encode("ascii", "replace"), expected.encode("ascii")):
        raise WebhookVerificationError("bad_signature", "the signature does not match")
    try:
        event = json.loads(_raw(body).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise WebhookVerificationError("malformed_body", "the body is not JSON") from err
    if not isinstance(event, dict):
        raise WebhookVerificationError("malformed_body", "the body is not a JSON object")
    return event
