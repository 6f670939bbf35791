"""Binary captures: the bytes, and the metadata headers that come with them, parsed."""

from dataclasses import dataclass
from typing import Mapping, Optional

from ._transport import Response


@dataclass(frozen=True)
class CaptureMetadata:
    """The `x-screenshot-*` and `x-service-*` headers of a binary capture."""

    url: str
    width: int
    height: int
    size: int
    captured_at: str
    format: str
    #: full, degraded or best_attempt.
    quality: str
    wait_strategy: str
    load_time_ms: int
    truncated: bool
    auto_scrolled: bool
    watermarked: bool
    credits_charged: Optional[int]
    #: None when the plan is unlimited (or the header is absent).
    credits_remaining: Optional[int]
    #: "hit" or "miss" for render links and cached outputs; None otherwise.
    cache: Optional[str]
    request_id: Optional[str]


@dataclass(frozen=True)
class Capture:
    """An image or PDF: its bytes, content type and metadata."""

    bytes: bytes
    content_type: str
    metadata: CaptureMetadata


def _int(value: Optional[str]) -> Optional[int]:
    if value is None or value.strip() == "":
        return None
    try:
        return int(float(value))
    except ValueError:
        return None


def metadata_of(headers: Mapping[str, str]) -> CaptureMetadata:
    """Parses the metadata headers (names lower-cased)."""
    remaining = headers.get("x-service-credits-remaining")
    cache = headers.get("x-service-cache")
    return CaptureMetadata(
        url=headers.get("x-screenshot-url", ""),
        width=_int(headers.get("x-screenshot-width")) or 0,
        height=_int(headers.get("x-screenshot-height")) or 0,
        size=_int(headers.get("x-screenshot-size")) or 0,
        captured_at=headers.get("x-screenshot-captured-at", ""),
        format=headers.get("x-service-format", ""),
        quality=headers.get("x-service-quality", ""),
        wait_strategy=headers.get("x-service-wait-strategy", ""),
        load_time_ms=_int(headers.get("x-service-load-time-ms")) or 0,
        truncated=headers.get("x-service-truncated") == "true",
        auto_scrolled=headers.get("x-service-auto-scrolled") == "true",
        watermarked=headers.get("x-service-watermarked") == "true",
        credits_charged=_int(headers.get("x-service-credits-charged")),
        credits_remaining=None if remaining == "unlimited" else _int(remaining),
        cache=cache if cache in ("hit", "miss") else None,
        request_id=headers.get("x-request-id"),
    )


def capture_of(res: Response) -> Capture:
    return Capture(
        bytes=res.body,
        content_type=res.headers.get("content-type", "application/octet-stream"),
        metadata=metadata_of(res.headers),
    )


@dataclass(frozen=True)
class Animation:
    """A recording (POST /v1/animate): the video or GIF bytes and the clip's headers."""

    bytes: bytes
    content_type: str
    width: int
    height: int
    frames: int
    duration_ms: int
    final_url: str
    load_time_ms: int
    credits_charged: Optional[int]
    #: None when the plan is unlimited (or the header is absent).
    credits_remaining: Optional[int]
    request_id: Optional[str]


def animation_of(res: Response) -> Animation:
    h = res.headers
    remaining = h.get("x-service-credits-remaining")
    return Animation(
        bytes=res.body,
        content_type=h.get("content-type", "application/octet-stream"),
        width=_int(h.get("x-animation-width")) or 0,
        height=_int(h.get("x-animation-height")) or 0,
        frames=_int(h.get("x-animation-frames")) or 0,
        duration_ms=_int(h.get("x-animation-duration-ms")) or 0,
        final_url=h.get("x-service-final-url", ""),
        load_time_ms=_int(h.get("x-service-load-time-ms")) or 0,
        credits_charged=_int(h.get("x-service-credits-charged")),
        credits_remaining=None if remaining == "unlimited" else _int(remaining),
        request_id=h.get("x-request-id"),
    )
