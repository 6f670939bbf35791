"""
The `Edgeshot` client. Captures, extraction, artifacts, render links, map and the account
are methods here; jobs, batches, watches, destinations, webhooks, crawls and monitors are
resource groups (./resources/).
The transport (auth, JSON, retries on 429/503 honouring Retry-After, timeouts, typed errors,
polling) is ./_transport.py, binary captures with their metadata headers ./captures.py.
Shapes are the generated TypedDicts of ./types.py.
"""

from typing import Any, Mapping, Optional, cast

from ._transport import Transport, request_body as _body
from .captures import Animation, Capture, animation_of, capture_of
from .resources.batches import Batches
from .resources.crawl import Crawls
from .resources.destinations import Destinations
from .resources.jobs import Jobs
from .resources.monitors import Monitors
from .resources.watches import Watches
from .resources.webhooks import Webhooks
from .types import (
    Account,
    AnimateBatchRequest,
    AnimateRequest,
    Artifact,
    ArtifactRequest,
    BatchAccepted,
    BatchRequest,
    CaptureJson,
    CaptureRequest,
    ContentRequest,
    CredentialCheck,
    Extraction,
    ExtractRequest,
    HostedAnimation,
    HostedCapture,
    JobAccepted,
    JsonRequest,
    Links,
    LinksRequest,
    MapRequest,
    MapResult,
    PageContent,
    RenderLink,
    RenderLinkRequest,
    RequestLog,
    Scrape,
    ScrapeRequest,
    Snapshot,
    SnapshotRequest,
    Structured,
)


class Edgeshot:
    """A client of the Edgeshot API.

    >>> edgeshot = Edgeshot("svc_…", base_url="http://localhost:8787")
    >>> shot = edgeshot.screenshot(url="https://example.com", width=1280, height=800)

    Every request-taking method accepts the request as a dict (the TypedDicts of
    `edgeshot.types`) and/or as keyword arguments. JSON calls return the envelope's `data`;
    its `meta` (`requestId`, `usage`) is `edgeshot.meta_of(result)`. Failures raise
    `EdgeshotError`. A 429 (but the monthly USAGE_EXCEEDED) or 503 (but CONFIGURATION_ERROR)
    is retried up to `max_retries` times after its Retry-After (at most `max_retry_after` s).
    `timeout` bounds each HTTP exchange, in seconds.
    """

    def __init__(
        self,
        api_key: str,
        base_url: str,
        *,
        timeout: float = 120.0,
        max_retries: int = 2,
        max_retry_after: float = 60.0,
    ) -> None:
        self._t = Transport(api_key, base_url, timeout, max_retries, max_retry_after)
        self.jobs = Jobs(self._t)
        self.batches = Batches(self._t)
        self.watches = Watches(self._t)
        self.destinations = Destinations(self._t)
        self.webhooks = Webhooks(self._t)
        self.crawl = Crawls(self._t)
        self.monitors = Monitors(self._t)

    def _post(
        self,
        path: str,
        request: Optional[Mapping[str, Any]],
        fields: Mapping[str, Any],
        idempotency_key: Optional[str],
        **fixed: Any,
    ) -> Any:
        """POST a JSON call: its body from `_body`, its answer the envelope's data."""
        return self._t.json("POST", path, _body(request, fields, **fixed), idempotency_key=idempotency_key)

    # Captures

    def screenshot(
        self,
        request: Optional[CaptureRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> Capture:
        """POST /v1/screenshot: the image or PDF bytes with their metadata headers parsed."""
        body = _body(request, fields)
        body.pop("hosted", None)
        body.pop("async", None)
        return capture_of(self._t.send("POST", "/v1/screenshot", body, idempotency_key=idempotency_key))

    def screenshot_hosted(
        self,
        request: Optional[CaptureRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> HostedCapture:
        """POST /v1/screenshot with hosted: true: a signed URL instead of bytes."""
        return cast(HostedCapture, self._post("/v1/screenshot", request, fields, idempotency_key, hosted=True))

    def screenshot_json(
        self,
        request: Optional[CaptureRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> CaptureJson:
        """POST /v1/screenshot/json: base64 image (and the article with extract: true)."""
        return cast(CaptureJson, self._post("/v1/screenshot/json", request, fields, idempotency_key))

    def screenshot_async(
        self,
        request: Optional[CaptureRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> JobAccepted:
        """POST /v1/screenshot with async: true: a queued job; see `jobs.wait()`."""
        body = _body(request, fields, **{"async": True})
        body.pop("hosted", None)
        return cast(JobAccepted, self._t.json("POST", "/v1/screenshot", body, idempotency_key=idempotency_key))

    def batch(
        self,
        request: Optional[BatchRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> BatchAccepted:
        """POST /v1/screenshot/batch (paid plans); see `batches.wait()`."""
        return cast(BatchAccepted, self._post("/v1/screenshot/batch", request, fields, idempotency_key))

    def fetch_signed(self, url: str) -> Capture:
        """Fetches a signed URL of this service (hosted output, job result, render link)."""
        return capture_of(self._t.fetch_signed(url))

    # Extraction, artifacts, render links

    def extract(
        self,
        request: Optional[ExtractRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> Extraction:
        """POST /v1/extract: the page's article as Markdown, HTML or text, with its metadata."""
        return cast(Extraction, self._post("/v1/extract", request, fields, idempotency_key))

    def content(
        self,
        request: Optional[ContentRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> PageContent:
        """POST /v1/content: the rendered HTML (and visible text) of one page load, as JSON."""
        return cast(PageContent, self._post("/v1/content", request, fields, idempotency_key))

    def scrape(
        self,
        request: Optional[ScrapeRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> Scrape:
        """POST /v1/scrape: the text, HTML, attributes and boxes of the elements asked for."""
        return cast(Scrape, self._post("/v1/scrape", request, fields, idempotency_key))

    def json(
        self,
        request: Optional[JsonRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> Structured:
        """POST /v1/json: typed fields by CSS selector and/or (with `kind`) the page's own
        product, article or organization from its JSON-LD, microdata, RDFa, meta tags and
        framework state; each markup value says where it came from."""
        return cast(Structured, self._post("/v1/json", request, fields, idempotency_key))

    def links(
        self,
        request: Optional[LinksRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> Links:
        """POST /v1/links: the page's links, absolute and de-duplicated."""
        return cast(Links, self._post("/v1/links", request, fields, idempotency_key))

    def snapshot(
        self,
        request: Optional[SnapshotRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> Snapshot:
        """POST /v1/snapshot: the rendered HTML and a base64 screenshot from one page load."""
        return cast(Snapshot, self._post("/v1/snapshot", request, fields, idempotency_key))

    def animate(
        self,
        request: Optional[AnimateRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> Animation:
        """POST /v1/animate: a scrolling (or still) video or GIF of a page, with the clip's headers."""
        body = _body(request, fields)
        body.pop("hosted", None)
        body.pop("async", None)
        return animation_of(self._t.send("POST", "/v1/animate", body, idempotency_key=idempotency_key))

    def animate_hosted(
        self,
        request: Optional[AnimateRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> HostedAnimation:
        """POST /v1/animate with hosted: true: a signed URL to the clip instead of bytes."""
        return cast(HostedAnimation, self._post("/v1/animate", request, fields, idempotency_key, hosted=True))

    def animate_async(
        self,
        request: Optional[AnimateRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> JobAccepted:
        """POST /v1/animate with async: true: a queued recording job (its result a hosted link, or
        the object in ``storage``; ``webhookUrl`` for job.completed); see `jobs.wait()`."""
        body = _body(request, fields, **{"async": True})
        body.pop("hosted", None)
        return cast(JobAccepted, self._t.json("POST", "/v1/animate", body, idempotency_key=idempotency_key))

    def animate_batch(
        self,
        request: Optional[AnimateBatchRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> BatchAccepted:
        """POST /v1/animate/batch (paid plans): one recording job per URL, all with ``defaults``
        (the clip and page settings of `animate`); each job reserves the recording's credits. See
        `batches.wait()`."""
        return cast(BatchAccepted, self._post("/v1/animate/batch", request, fields, idempotency_key))

    def artifact(
        self,
        request: Optional[ArtifactRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> Artifact:
        """POST /v1/artifact: Markdown or HTML rendered to a hosted PDF/PNG with a share page."""
        return cast(Artifact, self._post("/v1/artifact", request, fields, idempotency_key))

    def render_link(
        self,
        request: Optional[RenderLinkRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> RenderLink:
        """POST /v1/render/link: a signed capture URL anyone can fetch (see `render_links`)."""
        return cast(RenderLink, self._post("/v1/render/link", request, fields, idempotency_key))

    # Map (crawls are `self.crawl`)

    def map(
        self,
        request: Optional[MapRequest] = None,
        *,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> MapResult:
        """POST /v1/map: a site's URLs from its sitemaps and its start page's links (one credit)."""
        return cast(MapResult, self._post("/v1/map", request, fields, idempotency_key))

    # The account

    def account(self) -> Account:
        """GET /v1/account: plan, usage, rate limit, upgrade and the webhook signing secret."""
        return cast(Account, self._t.json("GET", "/v1/account"))

    def usage(self) -> Account:
        """GET /v1/usage (the same read-out as `account()`)."""
        return cast(Account, self._t.json("GET", "/v1/usage"))

    def credential_check(self) -> CredentialCheck:
        """GET /v1/credential-check."""
        return cast(CredentialCheck, self._t.json("GET", "/v1/credential-check"))

    def requests(self, status: Optional[str] = None, limit: Optional[int] = None) -> RequestLog:
        """GET /v1/requests: the last 200 API requests (7 days), newest first; status 2xx/4xx/5xx."""
        return cast(RequestLog, self._t.json("GET", "/v1/requests", query={"status": status, "limit": limit}))
