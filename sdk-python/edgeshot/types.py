"""
Types of the Edgeshot API, generated from schemas/openapi.json by scripts/python-types.mjs.
Do not edit: run `npm run openapi`. `npm run openapi:check` fails when this file is stale.

Every JSON shape is a TypedDict (request bodies, the `data` of answers, webhook events);
fields the API may omit are in the `total=False` base. Error codes are constants.
"""

from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union

__all__ = [
    "CaptureRequestCookiesItem",
    "CaptureRequestPdfMargin",
    "StorageOption",
    "CaptureRequestClip",
    "CaptureRequestActionsItem",
    "CaptureRequestActionsItem2",
    "CaptureRequestActionsItem3Type",
    "CaptureRequestActionsItem3",
    "CaptureRequestActionsItem4",
    "CaptureRequestActionsItem5Scroll",
    "CaptureRequestActionsItem5Scroll2",
    "CaptureRequestActionsItem5",
    "CaptureRequestActionsItem6",
    "CaptureRequestActionsItem7",
    "CaptureRequest",
    "BatchRequest",
    "RenderLinkRequest",
    "ExtractRequest",
    "ArtifactRequestBranding",
    "ArtifactRequestPageSetupMargin2",
    "ArtifactRequestPageSetup",
    "ArtifactRequest",
    "AnimateRequest",
    "AnimateBatchRequest",
    "ContentRequest",
    "ScrapeElement",
    "ScrapeRequest",
    "StructuredField",
    "StructuredFields",
    "JsonRequest",
    "LinksRequest",
    "SnapshotRequest",
    "DestinationRequest",
    "CrawlRequest",
    "MapRequest",
    "MonitorSchedule",
    "MonitorField",
    "MonitorRequestAlertsItem",
    "MonitorRegion",
    "MonitorRequest",
    "MonitorPatch",
    "WebhookTestRequest",
    "Delivery",
    "CompletenessImages",
    "Completeness",
    "JobCompletedEventMetadata",
    "JobCompletedEvent",
    "JobFailedEvent",
    "BatchCompletedEventJobsItem",
    "BatchCompletedEvent",
    "CrawlCompletedEventCounts",
    "CrawlCompletedEvent",
    "CrawlPageEventPage",
    "CrawlPageEvent",
    "MonitorCheckCounts",
    "MonitorCheck",
    "MonitorCheckCompletedEventPagesItem",
    "MonitorCheckCompletedEvent",
    "MonitorCheckPageVisualRegionsItem",
    "MonitorCheckPageVisual",
    "MonitorCheckPageTextPartsItem",
    "MonitorCheckPageText",
    "MonitorCheckPageFieldsItem",
    "MonitorCheckPageAlertsItem",
    "MonitorCheckPageMasked",
    "MonitorCheckPage",
    "MonitorPageEvent",
    "TestPingEvent",
    "ErrorDetail",
    "Usage",
    "Meta",
    "ServiceIndex",
    "Health",
    "HostedCapture",
    "JobAccepted",
    "CompletenessOutputImages",
    "CompletenessOutput",
    "CaptureJsonMetadataOpenGraph",
    "CaptureJsonMetadata",
    "Extraction",
    "CaptureJsonExtractionError",
    "CaptureJson",
    "BatchAcceptedJobsItem",
    "BatchAccepted",
    "DeliveryOutput",
    "JobMetadata",
    "WebhookState",
    "Job",
    "Batch",
    "RenderLink",
    "ArtifactFailedItem",
    "ArtifactMetadata",
    "Artifact",
    "HostedAnimation",
    "PageContent",
    "ScrapeMatchBox",
    "ScrapeMatch",
    "ScrapeResult",
    "Scrape",
    "ProductValuesRating",
    "ProductValues",
    "MarkupValue",
    "ArticleValues",
    "MarkupValue2",
    "OrganizationValues",
    "MarkupValue3",
    "MarkupValue4",
    "Markup",
    "Structured",
    "PageLink",
    "Links",
    "Snapshot",
    "CreditUsage",
    "Upgrade",
    "AccountWebhooks",
    "Account",
    "CredentialCheck",
    "Destination",
    "CrawlDryRun",
    "CrawlStarted",
    "CrawlCounts",
    "CrawlPageLinksItem",
    "CrawlPageMetadataOpenGraph",
    "CrawlPageMetadata",
    "CrawlPageJson",
    "CrawlPage",
    "Crawl",
    "CrawlSummary",
    "MapResultUrlsItem",
    "MapResult",
    "MonitorDryRun",
    "MonitorCheckOutputCounts",
    "MonitorCheckOutput",
    "MonitorSettingsAlertsItem",
    "MonitorSettings",
    "Monitor",
    "WebhookDeliverySubject",
    "WebhookDelivery",
    "WebhookTestResult",
    "RequestLogEntry",
    "RequestLog",
    "UsageOutput",
    "MetaOutput",
    "MonitorCheckPageOutputVisual",
    "MonitorCheckPageOutputTextPartsItem",
    "MonitorCheckPageOutputText",
    "MonitorCheckPageOutputFieldsItem",
    "MonitorCheckPageOutputAlertsItem",
    "MonitorCheckPageOutputMasked",
    "MonitorCheckPageOutput",
    "ErrorDetailOutput",
    "ErrorEnvelopeError",
    "ErrorEnvelope",
    "CaptureScreenshotGetQuery",
    "ListJobsQuery",
    "ListJobsResult",
    "ListBatchesQuery",
    "ListBatchesResult",
    "RenderQuery",
    "GetImageQuery",
    "HeadImageQuery",
    "ListDestinationsResult",
    "DeleteDestinationResult",
    "TestDestinationResult",
    "CreateWatchRequestChangeDetection",
    "CreateWatchRequestRetention",
    "CreateWatchRequest",
    "CreateWatchResultChangeDetection",
    "CreateWatchResultRetention",
    "CreateWatchResultStorage",
    "CreateWatchResult",
    "ListWatchesQuery",
    "ListWatchesResult",
    "GetWatchResult",
    "UpdateWatchRequest",
    "UpdateWatchResult",
    "DeleteWatchResult",
    "RunWatchResult",
    "ListWatchRunsQuery",
    "ListWatchRunsResultItemsItemTextDiff",
    "ListWatchRunsResultItemsItem",
    "ListWatchRunsResult",
    "GetCrawlPagesQuery",
    "GetCrawlPagesResult",
    "GetCrawlErrorsQuery",
    "GetCrawlErrorsResult",
    "ListCrawlsQuery",
    "ListCrawlsResult",
    "ListMonitorsQuery",
    "ListMonitorsResult",
    "DeleteMonitorResult",
    "ListMonitorChecksQuery",
    "ListMonitorChecksResult",
    "GetMonitorCheckPagesQuery",
    "GetMonitorCheckPagesResult",
    "ListWebhookDeliveriesQuery",
    "ListWebhookDeliveriesResult",
    "ListRequestsQuery",
    "Watch",
    "WatchRun",
    "WatchChangedEvent",
    "WatchAlertEvent",
    "WatchFailedEvent",
    "ErrorCode",
    "ERROR_STATUSES",
    "BATCH_LIMIT_EXCEEDED",
    "CAPTURE_FAILED",
    "CHECK_IN_PROGRESS",
    "CHECK_NOT_FOUND",
    "CONFIGURATION_ERROR",
    "CRAWL_LIMIT_REACHED",
    "CRAWL_NOT_FOUND",
    "EXTRACTION_FAILED",
    "FORBIDDEN",
    "GEO_FEATURE_UNAVAILABLE",
    "IDEMPOTENCY_KEY_IN_USE",
    "IDEMPOTENCY_KEY_REUSED",
    "INTERNAL_ERROR",
    "INVALID_API_KEY",
    "INVALID_JSON",
    "INVALID_URL",
    "INVALID_WEBHOOK_URL",
    "KEY_DISABLED",
    "MISSING_API_KEY",
    "MONITOR_LIMIT_REACHED",
    "MONITOR_NOT_FOUND",
    "MONITOR_SCHEDULE_TOO_FAST",
    "NOT_FOUND",
    "PAYLOAD_TOO_LARGE",
    "PLAN_UPGRADE_REQUIRED",
    "QUEUE_LIMIT_REACHED",
    "RATE_LIMITED",
    "SERVICE_BUSY",
    "TIMEOUT",
    "UNSAFE_URL",
    "URL_CHECK_UNAVAILABLE",
    "USAGE_EXCEEDED",
    "VALIDATION_ERROR",
    "WATCH_HOST_LIMIT_REACHED",
    "WATCH_INTERVAL_TOO_FAST",
    "WATCH_LIMIT_REACHED",
    "WATCH_NOT_FOUND",
    "WATCH_PAUSED",
]

_CaptureRequestCookiesItemRequired = TypedDict(
    "_CaptureRequestCookiesItemRequired",
    {
        "name": str,
        "value": str,
    },
)

_CaptureRequestCookiesItemOptional = TypedDict(
    "_CaptureRequestCookiesItemOptional",
    {
        "domain": str,
        "path": str,
        "httpOnly": bool,
        "secure": bool,
        "sameSite": Literal["Strict", "Lax", "None"],
        "expires": int,
    },
    total=False,
)


class CaptureRequestCookiesItem(_CaptureRequestCookiesItemRequired, _CaptureRequestCookiesItemOptional):
    pass


_CaptureRequestPdfMarginOptional = TypedDict(
    "_CaptureRequestPdfMarginOptional",
    {
        "top": str,
        "right": str,
        "bottom": str,
        "left": str,
    },
    total=False,
)


class CaptureRequestPdfMargin(_CaptureRequestPdfMarginOptional):
    "PDF page margins as CSS lengths (format pdf only); zero when omitted."


_StorageOptionRequired = TypedDict(
    "_StorageOptionRequired",
    {
        "destinationId": str,
    },
)

_StorageOptionOptional = TypedDict(
    "_StorageOptionOptional",
    {
        "key": str,
    },
    total=False,
)


class StorageOption(_StorageOptionRequired, _StorageOptionOptional):
    pass


_CaptureRequestClipRequired = TypedDict(
    "_CaptureRequestClipRequired",
    {
        "x": float,  # Left edge, CSS px.
        "y": float,  # Top edge, CSS px.
        "width": float,  # Width, CSS px.
        "height": float,  # Height, CSS px.
    },
)


class CaptureRequestClip(_CaptureRequestClipRequired):
    "Capture exactly this rectangle, in CSS px. Without fullPage it must lie inside the viewport; with fullPage the coordinates are page coordinates and it must lie inside the page."


_CaptureRequestActionsItemRequired = TypedDict(
    "_CaptureRequestActionsItemRequired",
    {
        "click": str,  # Click the first element matching.
    },
)


class CaptureRequestActionsItem(_CaptureRequestActionsItemRequired):
    pass


_CaptureRequestActionsItem2Required = TypedDict(
    "_CaptureRequestActionsItem2Required",
    {
        "hover": str,  # Move the mouse over the element.
    },
)


class CaptureRequestActionsItem2(_CaptureRequestActionsItem2Required):
    pass


_CaptureRequestActionsItem3TypeRequired = TypedDict(
    "_CaptureRequestActionsItem3TypeRequired",
    {
        "selector": str,
        "text": str,
    },
)


class CaptureRequestActionsItem3Type(_CaptureRequestActionsItem3TypeRequired):
    "Focus the element and type text (at most 1000 characters)."


_CaptureRequestActionsItem3Required = TypedDict(
    "_CaptureRequestActionsItem3Required",
    {
        "type": CaptureRequestActionsItem3Type,  # Focus the element and type text (at most 1000 characters).
    },
)


class CaptureRequestActionsItem3(_CaptureRequestActionsItem3Required):
    pass


_CaptureRequestActionsItem4Required = TypedDict(
    "_CaptureRequestActionsItem4Required",
    {
        "press": str,  # Press a key: "Enter", "Tab", "Escape", "ArrowDown", "a", …
    },
)


class CaptureRequestActionsItem4(_CaptureRequestActionsItem4Required):
    pass


_CaptureRequestActionsItem5ScrollRequired = TypedDict(
    "_CaptureRequestActionsItem5ScrollRequired",
    {
        "y": float,
    },
)


class CaptureRequestActionsItem5Scroll(_CaptureRequestActionsItem5ScrollRequired):
    pass


_CaptureRequestActionsItem5Scroll2Required = TypedDict(
    "_CaptureRequestActionsItem5Scroll2Required",
    {
        "selector": str,
    },
)


class CaptureRequestActionsItem5Scroll2(_CaptureRequestActionsItem5Scroll2Required):
    pass


_CaptureRequestActionsItem5Required = TypedDict(
    "_CaptureRequestActionsItem5Required",
    {
        "scroll": Union[CaptureRequestActionsItem5Scroll, CaptureRequestActionsItem5Scroll2],  # Scroll the window to y (CSS px) or the element into view.
    },
)


class CaptureRequestActionsItem5(_CaptureRequestActionsItem5Required):
    pass


_CaptureRequestActionsItem6Required = TypedDict(
    "_CaptureRequestActionsItem6Required",
    {
        "wait": int,  # Wait this many ms (at most 10000).
    },
)


class CaptureRequestActionsItem6(_CaptureRequestActionsItem6Required):
    pass


_CaptureRequestActionsItem7Required = TypedDict(
    "_CaptureRequestActionsItem7Required",
    {
        "waitForSelector": str,  # Wait until an element matches.
    },
)


class CaptureRequestActionsItem7(_CaptureRequestActionsItem7Required):
    pass


_CaptureRequestOptional = TypedDict(
    "_CaptureRequestOptional",
    {
        "url": str,  # The public http(s) URL to capture. Exactly one of url, html or markdown.
        "html": str,  # Raw HTML to render, at most 5 MB (UTF-8). Exactly one of url, html or markdown.
        "markdown": str,  # Markdown rendered with the default typography (darkMode gives the dark theme), at most 5 MB.
        "data": Dict[str, Any],  # Mustache data filled into html or markdown ({{var}} escaped, {{{var}}} raw, sections, inverted sections, dotted names); at most 256 KB serialized. Not with url.
        "format": Literal["png", "jpeg", "webp", "pdf"],  # Output format.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "fullPage": bool,  # Capture the full scrollable page (scrolled to load lazy content; at most 16,384 px tall).
        "darkMode": bool,  # Emulate prefers-color-scheme: dark.
        "blockAds": bool,  # Block ads and trackers.
        "quality": int,  # JPEG/WebP quality; ignored for PNG and PDF.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "deviceScaleFactor": float,  # Device pixel ratio.
        "blockResourceTypes": List[Literal["font", "image", "media", "stylesheet", "other"]],  # Resource types not loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "waitForSelector": str,  # Wait until this CSS selector matches (at most 500 characters).
        "bestAttempt": bool,  # On a timeout, fall back to less strict wait strategies and capture anyway (x-service-quality tells which).
        "selector": str,  # Capture only the first element matching this CSS selector (at most 500 characters).
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "hideSelectors": List[str],  # CSS selectors set to display:none before capture; no error when nothing matches.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "resizeWidth": int,  # Downscale the image to this width (never upscales; aspect kept when only one side is given). Images only.
        "resizeHeight": int,  # Downscale the image to this height (never upscales). Images only.
        "css": str,  # CSS injected before capture, at most 50 KB.
        "js": str,  # JavaScript run after navigation completes, at most 50 KB.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "userAgent": str,  # User-Agent string, at most 512 characters.
        "pdfFormat": Literal["A4", "Letter", "Legal", "Tabloid", "A3"],  # PDF paper size (format pdf only).
        "pdfLandscape": bool,  # Landscape PDF pages (format pdf only).
        "pdfPrintBackground": bool,  # Print backgrounds in the PDF (format pdf only).
        "pdfScale": float,  # PDF rendering scale (format pdf only).
        "pdfMargin": CaptureRequestPdfMargin,  # PDF page margins as CSS lengths (format pdf only); zero when omitted.
        "geo": Literal["AF", "AL", "DZ", "AR", "AU", "AT", "BD", "BE", "BR", "BG", "CA", "CL", "CN", "CO", "HR", "CZ", "DK", "EG", "EE", "FI", "FR", "DE", "GR", "HK", "HU", "IN", "ID", "IE", "IL", "IT", "JP", "KE", "KR", "LV", "LT", "MY", "MX", "NL", "NZ", "NG", "NO", "PK", "PE", "PH", "PL", "PT", "RO", "RU", "SA", "SG", "SK", "ZA", "ES", "SE", "CH", "TW", "TH", "TR", "UA", "AE", "GB", "US", "VN"],  # Two-letter country to render from (Pro and Enterprise): PNG at 1280x800 through the geo proxy.
        "geoCity": str,  # City within geo, at most 100 characters; requires geo.
        "geoState": str,  # State within geo, at most 100 characters; requires geo.
        "hosted": bool,  # Store the output and answer with a signed URL instead of bytes (POST only).
        "extract": bool,  # Also return reader-mode content (POST /v1/screenshot/json only).
        "extractFormat": Literal["markdown", "json", "html"],  # Shape of the extracted content.
        "async": bool,  # Queue the capture and answer 202 with a jobId.
        "webhookUrl": str,  # Public HTTPS URL that receives job.completed / job.failed; requires async.
        "storage": StorageOption,  # Deliver the async result to a storage destination (Pro and Enterprise); requires async.
        "cacheTtl": int,  # Seconds the result (hosted URL, async result, render cache) stays available.
        "clip": CaptureRequestClip,  # Capture exactly this rectangle, in CSS px. Without fullPage it must lie inside the viewport; with fullPage the coordinates are page coordinates and it must lie inside the page.
        "omitBackground": bool,  # PNG/WebP: a transparent background where the page paints none (alpha 0 at unpainted pixels).
        "timezone": str,  # IANA time zone the page runs in (Date, Intl), e.g. America/New_York.
        "locale": str,  # BCP 47 locale: navigator.language(s), the Accept-Language header and Intl defaults, e.g. de-DE.
        "mediaType": Literal["screen", "print"],  # CSS media type to emulate: screen (default) or print.
        "reducedMotion": bool,  # Emulate prefers-reduced-motion: reduce.
        "liveMotion": bool,  # Keep animations, transitions and videos running. Default false: they are settled (finite ones at their end, endless ones and videos on their first frame) and carets hidden, so two captures of an unchanged page are identical.
        "requireComplete": bool,  # Fail with 502 CAPTURE_FAILED (not charged) instead of answering an incomplete capture: the wait strategy did not hold, requests were still pending, a font or an image in the captured region had not loaded, or the shot stayed blank while the page was still working.
        "pdfHeader": str,  # PDF: HTML printed at the top of every page (≤ 10 KB); {{page}}, {{pages}}, {{date}}, {{title}} and {{url}} are filled in. Nothing is loaded: only inline data: URLs.
        "pdfFooter": str,  # PDF: HTML printed at the bottom of every page (≤ 10 KB); same placeholders as pdfHeader.
        "pdfPageRanges": str,  # PDF: the pages to keep, e.g. "1-3,5".
        "pdfOutline": bool,  # PDF: bookmarks (a document outline) from the headings.
        "pdfTagged": bool,  # PDF: tagged (accessible) output; default true. false gives a smaller, untagged file.
        "actions": List[Union[CaptureRequestActionsItem, CaptureRequestActionsItem2, CaptureRequestActionsItem3, CaptureRequestActionsItem4, CaptureRequestActionsItem5, CaptureRequestActionsItem6, CaptureRequestActionsItem7]],  # Steps run in order once the page is ready (after js, before delay), all within the timeout. A selector that matches nothing fails the capture naming the step.
        "failOnStatus": List[Union[int, Literal["1xx", "2xx", "3xx", "4xx", "5xx"]]],  # Fail the capture (no credit) when the main document's final HTTP status matches one of these codes or classes. Default: capture whatever the page answers.
    },
    total=False,
)


class CaptureRequest(_CaptureRequestOptional):
    pass


_BatchRequestRequired = TypedDict(
    "_BatchRequestRequired",
    {
        "urls": List[str],
    },
)

_BatchRequestOptional = TypedDict(
    "_BatchRequestOptional",
    {
        "defaults": Dict[str, Any],  # Capture settings shared by every job; per-job-only fields (url, html, async, webhookUrl, cookies, headers, selector, waitForSelector, blockResourceTypes, pdfMargin) are refused.
        "webhookUrl": str,
        "cacheTtl": int,
        "storage": StorageOption,
    },
    total=False,
)


class BatchRequest(_BatchRequestRequired, _BatchRequestOptional):
    pass


_RenderLinkRequestOptional = TypedDict(
    "_RenderLinkRequestOptional",
    {
        "url": str,  # The public http(s) URL to capture. Exactly one of url, html or markdown.
        "html": str,  # Raw HTML to render, at most 5 MB (UTF-8). Exactly one of url, html or markdown.
        "markdown": str,  # Markdown rendered with the default typography (darkMode gives the dark theme), at most 5 MB.
        "data": Dict[str, Any],  # Mustache data filled into html or markdown ({{var}} escaped, {{{var}}} raw, sections, inverted sections, dotted names); at most 256 KB serialized. Not with url.
        "format": Literal["png", "jpeg", "webp", "pdf"],  # Output format.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "fullPage": bool,  # Capture the full scrollable page (scrolled to load lazy content; at most 16,384 px tall).
        "darkMode": bool,  # Emulate prefers-color-scheme: dark.
        "blockAds": bool,  # Block ads and trackers.
        "quality": int,  # JPEG/WebP quality; ignored for PNG and PDF.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "deviceScaleFactor": float,  # Device pixel ratio.
        "blockResourceTypes": List[Literal["font", "image", "media", "stylesheet", "other"]],  # Resource types not loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "waitForSelector": str,  # Wait until this CSS selector matches (at most 500 characters).
        "bestAttempt": bool,  # On a timeout, fall back to less strict wait strategies and capture anyway (x-service-quality tells which).
        "selector": str,  # Capture only the first element matching this CSS selector (at most 500 characters).
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "hideSelectors": List[str],  # CSS selectors set to display:none before capture; no error when nothing matches.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "resizeWidth": int,  # Downscale the image to this width (never upscales; aspect kept when only one side is given). Images only.
        "resizeHeight": int,  # Downscale the image to this height (never upscales). Images only.
        "css": str,  # CSS injected before capture, at most 50 KB.
        "js": str,  # JavaScript run after navigation completes, at most 50 KB.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "userAgent": str,  # User-Agent string, at most 512 characters.
        "pdfFormat": Literal["A4", "Letter", "Legal", "Tabloid", "A3"],  # PDF paper size (format pdf only).
        "pdfLandscape": bool,  # Landscape PDF pages (format pdf only).
        "pdfPrintBackground": bool,  # Print backgrounds in the PDF (format pdf only).
        "pdfScale": float,  # PDF rendering scale (format pdf only).
        "pdfMargin": CaptureRequestPdfMargin,  # PDF page margins as CSS lengths (format pdf only); zero when omitted.
        "geo": Literal["AF", "AL", "DZ", "AR", "AU", "AT", "BD", "BE", "BR", "BG", "CA", "CL", "CN", "CO", "HR", "CZ", "DK", "EG", "EE", "FI", "FR", "DE", "GR", "HK", "HU", "IN", "ID", "IE", "IL", "IT", "JP", "KE", "KR", "LV", "LT", "MY", "MX", "NL", "NZ", "NG", "NO", "PK", "PE", "PH", "PL", "PT", "RO", "RU", "SA", "SG", "SK", "ZA", "ES", "SE", "CH", "TW", "TH", "TR", "UA", "AE", "GB", "US", "VN"],  # Two-letter country to render from (Pro and Enterprise): PNG at 1280x800 through the geo proxy.
        "geoCity": str,  # City within geo, at most 100 characters; requires geo.
        "geoState": str,  # State within geo, at most 100 characters; requires geo.
        "hosted": bool,  # Store the output and answer with a signed URL instead of bytes (POST only).
        "extract": bool,  # Also return reader-mode content (POST /v1/screenshot/json only).
        "extractFormat": Literal["markdown", "json", "html"],  # Shape of the extracted content.
        "async": bool,  # Queue the capture and answer 202 with a jobId.
        "webhookUrl": str,  # Public HTTPS URL that receives job.completed / job.failed; requires async.
        "storage": StorageOption,  # Deliver the async result to a storage destination (Pro and Enterprise); requires async.
        "cacheTtl": int,  # Seconds the result (hosted URL, async result, render cache) stays available.
        "clip": CaptureRequestClip,  # Capture exactly this rectangle, in CSS px. Without fullPage it must lie inside the viewport; with fullPage the coordinates are page coordinates and it must lie inside the page.
        "omitBackground": bool,  # PNG/WebP: a transparent background where the page paints none (alpha 0 at unpainted pixels).
        "timezone": str,  # IANA time zone the page runs in (Date, Intl), e.g. America/New_York.
        "locale": str,  # BCP 47 locale: navigator.language(s), the Accept-Language header and Intl defaults, e.g. de-DE.
        "mediaType": Literal["screen", "print"],  # CSS media type to emulate: screen (default) or print.
        "reducedMotion": bool,  # Emulate prefers-reduced-motion: reduce.
        "liveMotion": bool,  # Keep animations, transitions and videos running. Default false: they are settled (finite ones at their end, endless ones and videos on their first frame) and carets hidden, so two captures of an unchanged page are identical.
        "requireComplete": bool,  # Fail with 502 CAPTURE_FAILED (not charged) instead of answering an incomplete capture: the wait strategy did not hold, requests were still pending, a font or an image in the captured region had not loaded, or the shot stayed blank while the page was still working.
        "pdfHeader": str,  # PDF: HTML printed at the top of every page (≤ 10 KB); {{page}}, {{pages}}, {{date}}, {{title}} and {{url}} are filled in. Nothing is loaded: only inline data: URLs.
        "pdfFooter": str,  # PDF: HTML printed at the bottom of every page (≤ 10 KB); same placeholders as pdfHeader.
        "pdfPageRanges": str,  # PDF: the pages to keep, e.g. "1-3,5".
        "pdfOutline": bool,  # PDF: bookmarks (a document outline) from the headings.
        "pdfTagged": bool,  # PDF: tagged (accessible) output; default true. false gives a smaller, untagged file.
        "actions": List[Union[CaptureRequestActionsItem, CaptureRequestActionsItem2, CaptureRequestActionsItem3, CaptureRequestActionsItem4, CaptureRequestActionsItem5, CaptureRequestActionsItem6, CaptureRequestActionsItem7]],  # Steps run in order once the page is ready (after js, before delay), all within the timeout. A selector that matches nothing fails the capture naming the step.
        "failOnStatus": List[Union[int, Literal["1xx", "2xx", "3xx", "4xx", "5xx"]]],  # Fail the capture (no credit) when the main document's final HTTP status matches one of these codes or classes. Default: capture whatever the page answers.
        "expiresIn": int,  # Seconds the link stays valid; defaults to cacheTtl, else 30 days.
    },
    total=False,
)


class RenderLinkRequest(_RenderLinkRequestOptional):
    pass


_ExtractRequestRequired = TypedDict(
    "_ExtractRequestRequired",
    {
        "url": str,  # The public http(s) URL to capture. Exactly one of url, html or markdown.
    },
)

_ExtractRequestOptional = TypedDict(
    "_ExtractRequestOptional",
    {
        "extractFormat": Literal["markdown", "json", "html"],  # Shape of the extracted content.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "timeout": int,  # Navigation timeout in seconds.
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "hideSelectors": List[str],  # CSS selectors set to display:none before capture; no error when nothing matches.
        "render": Literal["auto", "always", "never"],  # always: the page rendered in the browser; never: its document fetched over HTTP and read without a browser (faster; no scripts run, waitUntil, device, blockCookieBanners and hideSelectors do not apply); auto: fetched over HTTP, rendered in the browser only when the document needs scripts to show its content. 1 credit either way; `rendered` in the answer says which.
    },
    total=False,
)


class ExtractRequest(_ExtractRequestRequired, _ExtractRequestOptional):
    pass


_ArtifactRequestBrandingOptional = TypedDict(
    "_ArtifactRequestBrandingOptional",
    {
        "logo": str,
        "accentColor": str,
        "font": Literal["sans", "serif", "mono", "inter", "merriweather", "jetbrains-mono"],
        "header": str,
        "footer": str,
    },
    total=False,
)


class ArtifactRequestBranding(_ArtifactRequestBrandingOptional):
    pass


_ArtifactRequestPageSetupMargin2Optional = TypedDict(
    "_ArtifactRequestPageSetupMargin2Optional",
    {
        "top": str,
        "right": str,
        "bottom": str,
        "left": str,
    },
    total=False,
)


class ArtifactRequestPageSetupMargin2(_ArtifactRequestPageSetupMargin2Optional):
    pass


_ArtifactRequestPageSetupOptional = TypedDict(
    "_ArtifactRequestPageSetupOptional",
    {
        "size": Literal["A4", "Letter", "Legal", "Tabloid", "A3"],
        "orientation": Literal["portrait", "landscape"],
        "margin": Union[str, ArtifactRequestPageSetupMargin2],
        "scale": float,
        "width": int,
        "height": int,
        "fullPage": bool,
    },
    total=False,
)


class ArtifactRequestPageSetup(_ArtifactRequestPageSetupOptional):
    pass


_ArtifactRequestRequired = TypedDict(
    "_ArtifactRequestRequired",
    {
        "content": str,
    },
)

_ArtifactRequestOptional = TypedDict(
    "_ArtifactRequestOptional",
    {
        "inputFormat": Literal["markdown", "html"],
        "formats": List[Literal["pdf", "png"]],
        "title": str,
        "toc": bool,
        "branding": ArtifactRequestBranding,
        "pageSetup": ArtifactRequestPageSetup,
        "data": Dict[str, Any],
        "expiresIn": int,
    },
    total=False,
)


class ArtifactRequest(_ArtifactRequestRequired, _ArtifactRequestOptional):
    pass


_AnimateRequestOptional = TypedDict(
    "_AnimateRequestOptional",
    {
        "url": str,  # The public http(s) URL to capture. Exactly one of url, html or markdown.
        "html": str,  # Raw HTML to render, at most 5 MB (UTF-8). Exactly one of url, html or markdown.
        "markdown": str,  # Markdown rendered with the default typography (darkMode gives the dark theme), at most 5 MB.
        "data": Dict[str, Any],  # Mustache data filled into html or markdown ({{var}} escaped, {{{var}}} raw, sections, inverted sections, dotted names); at most 256 KB serialized. Not with url.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "darkMode": bool,  # Emulate prefers-color-scheme: dark.
        "blockAds": bool,  # Block ads and trackers.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "deviceScaleFactor": float,  # Device pixel ratio.
        "blockResourceTypes": List[Literal["font", "image", "media", "stylesheet", "other"]],  # Resource types not loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "waitForSelector": str,  # Wait until this CSS selector matches (at most 500 characters).
        "bestAttempt": bool,  # On a timeout, fall back to less strict wait strategies and capture anyway (x-service-quality tells which).
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "hideSelectors": List[str],  # CSS selectors set to display:none before capture; no error when nothing matches.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "css": str,  # CSS injected before capture, at most 50 KB.
        "js": str,  # JavaScript run after navigation completes, at most 50 KB.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "userAgent": str,  # User-Agent string, at most 512 characters.
        "geo": Literal["AF", "AL", "DZ", "AR", "AU", "AT", "BD", "BE", "BR", "BG", "CA", "CL", "CN", "CO", "HR", "CZ", "DK", "EG", "EE", "FI", "FR", "DE", "GR", "HK", "HU", "IN", "ID", "IE", "IL", "IT", "JP", "KE", "KR", "LV", "LT", "MY", "MX", "NL", "NZ", "NG", "NO", "PK", "PE", "PH", "PL", "PT", "RO", "RU", "SA", "SG", "SK", "ZA", "ES", "SE", "CH", "TW", "TH", "TR", "UA", "AE", "GB", "US", "VN"],  # Two-letter country to render from (Pro and Enterprise): PNG at 1280x800 through the geo proxy.
        "geoCity": str,  # City within geo, at most 100 characters; requires geo.
        "geoState": str,  # State within geo, at most 100 characters; requires geo.
        "timezone": str,  # IANA time zone the page runs in (Date, Intl), e.g. America/New_York.
        "locale": str,  # BCP 47 locale: navigator.language(s), the Accept-Language header and Intl defaults, e.g. de-DE.
        "mediaType": Literal["screen", "print"],  # CSS media type to emulate: screen (default) or print.
        "reducedMotion": bool,  # Emulate prefers-reduced-motion: reduce.
        "liveMotion": bool,  # Keep animations, transitions and videos running. Default false: they are settled (finite ones at their end, endless ones and videos on their first frame) and carets hidden, so two captures of an unchanged page are identical.
        "requireComplete": bool,  # Fail with 502 CAPTURE_FAILED (not charged) instead of answering an incomplete capture: the wait strategy did not hold, requests were still pending, a font or an image in the captured region had not loaded, or the shot stayed blank while the page was still working.
        "actions": List[Union[CaptureRequestActionsItem, CaptureRequestActionsItem2, CaptureRequestActionsItem3, CaptureRequestActionsItem4, CaptureRequestActionsItem5, CaptureRequestActionsItem6, CaptureRequestActionsItem7]],  # Steps run in order once the page is ready (after js, before delay), all within the timeout. A selector that matches nothing fails the capture naming the step.
        "failOnStatus": List[Union[int, Literal["1xx", "2xx", "3xx", "4xx", "5xx"]]],  # Fail the capture (no credit) when the main document's final HTTP status matches one of these codes or classes. Default: capture whatever the page answers.
        "format": Literal["webm", "mp4", "gif"],  # webm (VP9, or VP8 by MediaRecorder outside a secure context), mp4 (H.264, where the browser has an H.264 encoder; otherwise 422) or gif (gifenc, 256 colours a frame).
        "scenario": Literal["scroll", "still"],  # scroll: the page scrolls itself from the top to scrollTillSelector (or its end); still: the viewport is filmed as it moves on its own (CSS animations, video, canvas).
        "duration": float,  # Length of the clip in seconds (your plan may allow less). Credits: one per started 5 s.
        "fps": int,  # Frames per second (your plan may allow less; gif at most 15).
        "scrollSpeed": int,  # scroll: CSS pixels per second. Not with scrollDuration. Neither: the scroll takes the whole clip (half each way with scrollBack).
        "scrollDuration": float,  # scroll: seconds the scroll down takes (eased), at most the duration (half of it with scrollBack). Not with scrollSpeed.
        "scrollTillSelector": str,  # scroll: stop where this element's top reaches the top of the viewport (or the page's end, if sooner). Omitted: the page's end.
        "scrollBack": bool,  # scroll: then scroll back to the top, as fast as down.
        "hosted": bool,  # Store the clip and answer JSON with a signed URL (kept for 24 hours) instead of the bytes.
        "async": bool,  # Queue the recording and answer 202 with a jobId; the job's result is a hosted link (or the object in your storage destination).
        "webhookUrl": str,  # Public HTTPS URL that receives job.completed / job.failed; requires async.
        "storage": StorageOption,  # Deliver the async result to a storage destination (Pro and Enterprise); requires async.
        "cacheTtl": int,  # Seconds the hosted clip (hosted: true, or an async job's result) stays available.
        "startDelay": int,  # Milliseconds to wait after the page is ready (and after delay, actions and the rest) before the first frame.
    },
    total=False,
)


class AnimateRequest(_AnimateRequestOptional):
    pass


_AnimateBatchRequestRequired = TypedDict(
    "_AnimateBatchRequestRequired",
    {
        "urls": List[str],
    },
)

_AnimateBatchRequestOptional = TypedDict(
    "_AnimateBatchRequestOptional",
    {
        "defaults": Dict[str, Any],  # Recording settings shared by every job; per-job-only fields (url, html, async, webhookUrl, cookies, headers, waitForSelector, blockResourceTypes) are refused.
        "webhookUrl": str,
        "cacheTtl": int,
        "storage": StorageOption,
    },
    total=False,
)


class AnimateBatchRequest(_AnimateBatchRequestRequired, _AnimateBatchRequestOptional):
    pass


_ContentRequestOptional = TypedDict(
    "_ContentRequestOptional",
    {
        "url": str,  # The public http(s) URL to capture. Exactly one of url, html or markdown.
        "html": str,  # Raw HTML to render, at most 5 MB (UTF-8). Exactly one of url, html or markdown.
        "markdown": str,  # Markdown rendered with the default typography (darkMode gives the dark theme), at most 5 MB.
        "data": Dict[str, Any],  # Mustache data filled into html or markdown ({{var}} escaped, {{{var}}} raw, sections, inverted sections, dotted names); at most 256 KB serialized. Not with url.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "fullPage": bool,  # Capture the full scrollable page (scrolled to load lazy content; at most 16,384 px tall).
        "darkMode": bool,  # Emulate prefers-color-scheme: dark.
        "blockAds": bool,  # Block ads and trackers.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "deviceScaleFactor": float,  # Device pixel ratio.
        "blockResourceTypes": List[Literal["font", "image", "media", "stylesheet", "other"]],  # Resource types not loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "waitForSelector": str,  # Wait until this CSS selector matches (at most 500 characters).
        "bestAttempt": bool,  # On a timeout, fall back to less strict wait strategies and capture anyway (x-service-quality tells which).
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "hideSelectors": List[str],  # CSS selectors set to display:none before capture; no error when nothing matches.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "css": str,  # CSS injected before capture, at most 50 KB.
        "js": str,  # JavaScript run after navigation completes, at most 50 KB.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "userAgent": str,  # User-Agent string, at most 512 characters.
        "geo": Literal["AF", "AL", "DZ", "AR", "AU", "AT", "BD", "BE", "BR", "BG", "CA", "CL", "CN", "CO", "HR", "CZ", "DK", "EG", "EE", "FI", "FR", "DE", "GR", "HK", "HU", "IN", "ID", "IE", "IL", "IT", "JP", "KE", "KR", "LV", "LT", "MY", "MX", "NL", "NZ", "NG", "NO", "PK", "PE", "PH", "PL", "PT", "RO", "RU", "SA", "SG", "SK", "ZA", "ES", "SE", "CH", "TW", "TH", "TR", "UA", "AE", "GB", "US", "VN"],  # Two-letter country to render from (Pro and Enterprise): PNG at 1280x800 through the geo proxy.
        "geoCity": str,  # City within geo, at most 100 characters; requires geo.
        "geoState": str,  # State within geo, at most 100 characters; requires geo.
        "timezone": str,  # IANA time zone the page runs in (Date, Intl), e.g. America/New_York.
        "locale": str,  # BCP 47 locale: navigator.language(s), the Accept-Language header and Intl defaults, e.g. de-DE.
        "mediaType": Literal["screen", "print"],  # CSS media type to emulate: screen (default) or print.
        "reducedMotion": bool,  # Emulate prefers-reduced-motion: reduce.
        "liveMotion": bool,  # Keep animations, transitions and videos running. Default false: they are settled (finite ones at their end, endless ones and videos on their first frame) and carets hidden, so two captures of an unchanged page are identical.
        "requireComplete": bool,  # Fail with 502 CAPTURE_FAILED (not charged) instead of answering an incomplete capture: the wait strategy did not hold, requests were still pending, a font or an image in the captured region had not loaded, or the shot stayed blank while the page was still working.
        "actions": List[Union[CaptureRequestActionsItem, CaptureRequestActionsItem2, CaptureRequestActionsItem3, CaptureRequestActionsItem4, CaptureRequestActionsItem5, CaptureRequestActionsItem6, CaptureRequestActionsItem7]],  # Steps run in order once the page is ready (after js, before delay), all within the timeout. A selector that matches nothing fails the capture naming the step.
        "failOnStatus": List[Union[int, Literal["1xx", "2xx", "3xx", "4xx", "5xx"]]],  # Fail the capture (no credit) when the main document's final HTTP status matches one of these codes or classes. Default: capture whatever the page answers.
        "contentFormat": Literal["html", "text"],  # html: the rendered DOM serialized; text: the page's visible text.
        "stripScripts": bool,  # Remove <script> elements, on* event-handler attributes and javascript: URLs from the rendered HTML.
        "render": Literal["auto", "always", "never"],  # always: the page loaded in the browser; never: its document fetched over HTTP (an html source: taken as given) and read without a browser — no script runs, so js, actions and waitForSelector are refused, and the options of a browser (waitUntil, device, css, …) do not apply; auto: read over HTTP unless the document needs scripts to show its content or the request needs a browser, then in the browser. 1 credit either way; `rendered` in the answer says which.
    },
    total=False,
)


class ContentRequest(_ContentRequestOptional):
    pass


_ScrapeElementRequired = TypedDict(
    "_ScrapeElementRequired",
    {
        "selector": str,  # A CSS selector; every match in document order (at most 100 are returned).
    },
)

_ScrapeElementOptional = TypedDict(
    "_ScrapeElementOptional",
    {
        "attributes": List[str],  # The attributes to return for each match (absent ones are left out); all of them when omitted.
    },
    total=False,
)


class ScrapeElement(_ScrapeElementRequired, _ScrapeElementOptional):
    pass


_ScrapeRequestRequired = TypedDict(
    "_ScrapeRequestRequired",
    {
        "elements": List[ScrapeElement],  # The elements to read, 1 to 20 selectors.
    },
)

_ScrapeRequestOptional = TypedDict(
    "_ScrapeRequestOptional",
    {
        "url": str,  # The public http(s) URL to capture. Exactly one of url, html or markdown.
        "html": str,  # Raw HTML to render, at most 5 MB (UTF-8). Exactly one of url, html or markdown.
        "markdown": str,  # Markdown rendered with the default typography (darkMode gives the dark theme), at most 5 MB.
        "data": Dict[str, Any],  # Mustache data filled into html or markdown ({{var}} escaped, {{{var}}} raw, sections, inverted sections, dotted names); at most 256 KB serialized. Not with url.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "fullPage": bool,  # Capture the full scrollable page (scrolled to load lazy content; at most 16,384 px tall).
        "darkMode": bool,  # Emulate prefers-color-scheme: dark.
        "blockAds": bool,  # Block ads and trackers.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "deviceScaleFactor": float,  # Device pixel ratio.
        "blockResourceTypes": List[Literal["font", "image", "media", "stylesheet", "other"]],  # Resource types not loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "waitForSelector": str,  # Wait until this CSS selector matches (at most 500 characters).
        "bestAttempt": bool,  # On a timeout, fall back to less strict wait strategies and capture anyway (x-service-quality tells which).
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "hideSelectors": List[str],  # CSS selectors set to display:none before capture; no error when nothing matches.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "css": str,  # CSS injected before capture, at most 50 KB.
        "js": str,  # JavaScript run after navigation completes, at most 50 KB.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "userAgent": str,  # User-Agent string, at most 512 characters.
        "geo": Literal["AF", "AL", "DZ", "AR", "AU", "AT", "BD", "BE", "BR", "BG", "CA", "CL", "CN", "CO", "HR", "CZ", "DK", "EG", "EE", "FI", "FR", "DE", "GR", "HK", "HU", "IN", "ID", "IE", "IL", "IT", "JP", "KE", "KR", "LV", "LT", "MY", "MX", "NL", "NZ", "NG", "NO", "PK", "PE", "PH", "PL", "PT", "RO", "RU", "SA", "SG", "SK", "ZA", "ES", "SE", "CH", "TW", "TH", "TR", "UA", "AE", "GB", "US", "VN"],  # Two-letter country to render from (Pro and Enterprise): PNG at 1280x800 through the geo proxy.
        "geoCity": str,  # City within geo, at most 100 characters; requires geo.
        "geoState": str,  # State within geo, at most 100 characters; requires geo.
        "timezone": str,  # IANA time zone the page runs in (Date, Intl), e.g. America/New_York.
        "locale": str,  # BCP 47 locale: navigator.language(s), the Accept-Language header and Intl defaults, e.g. de-DE.
        "mediaType": Literal["screen", "print"],  # CSS media type to emulate: screen (default) or print.
        "reducedMotion": bool,  # Emulate prefers-reduced-motion: reduce.
        "liveMotion": bool,  # Keep animations, transitions and videos running. Default false: they are settled (finite ones at their end, endless ones and videos on their first frame) and carets hidden, so two captures of an unchanged page are identical.
        "requireComplete": bool,  # Fail with 502 CAPTURE_FAILED (not charged) instead of answering an incomplete capture: the wait strategy did not hold, requests were still pending, a font or an image in the captured region had not loaded, or the shot stayed blank while the page was still working.
        "actions": List[Union[CaptureRequestActionsItem, CaptureRequestActionsItem2, CaptureRequestActionsItem3, CaptureRequestActionsItem4, CaptureRequestActionsItem5, CaptureRequestActionsItem6, CaptureRequestActionsItem7]],  # Steps run in order once the page is ready (after js, before delay), all within the timeout. A selector that matches nothing fails the capture naming the step.
        "failOnStatus": List[Union[int, Literal["1xx", "2xx", "3xx", "4xx", "5xx"]]],  # Fail the capture (no credit) when the main document's final HTTP status matches one of these codes or classes. Default: capture whatever the page answers.
    },
    total=False,
)


class ScrapeRequest(_ScrapeRequestRequired, _ScrapeRequestOptional):
    pass


_StructuredFieldOptional = TypedDict(
    "_StructuredFieldOptional",
    {
        "selector": str,  # A CSS selector, matched inside the enclosing object's element (the document at the top). Omitted: that element itself.
        "attribute": str,  # Read this attribute instead of the element's text (whitespace collapsed).
        "type": Literal["string", "number", "url", "date", "boolean"],  # string; number (locale-aware: 1.299,00 € / 1,299.00 / 1 299,00); url (resolved against the page); date (ISO 8601); boolean (the element, and the attribute if named, is there, unless it reads false/no/0/off).
        "decimal": Literal[".", ","],  # number: the decimal separator, when the page's locale is known (1.299 is 1299 with `,`, 1.299 with `.`). Guessed from the value otherwise.
        "list": bool,  # Every match, as an array (at most 1,000), instead of the first.
        "default": Optional[Union[str, float]],  # The value when nothing matches, the attribute is absent or the text does not read as the type (null otherwise). Not on lists, objects or booleans.
        "fields": "StructuredFields",  # An object: these fields, read inside each match of `selector` (with `list`, one object per match).
    },
    total=False,
)


class StructuredField(_StructuredFieldOptional):
    pass


StructuredFields = Dict[str, StructuredField]


_JsonRequestOptional = TypedDict(
    "_JsonRequestOptional",
    {
        "url": str,  # The public http(s) URL to capture. Exactly one of url, html or markdown.
        "html": str,  # Raw HTML to render, at most 5 MB (UTF-8). Exactly one of url, html or markdown.
        "markdown": str,  # Markdown rendered with the default typography (darkMode gives the dark theme), at most 5 MB.
        "data": Dict[str, Any],  # Mustache data filled into html or markdown ({{var}} escaped, {{{var}}} raw, sections, inverted sections, dotted names); at most 256 KB serialized. Not with url.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "fullPage": bool,  # Capture the full scrollable page (scrolled to load lazy content; at most 16,384 px tall).
        "darkMode": bool,  # Emulate prefers-color-scheme: dark.
        "blockAds": bool,  # Block ads and trackers.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "deviceScaleFactor": float,  # Device pixel ratio.
        "blockResourceTypes": List[Literal["font", "image", "media", "stylesheet", "other"]],  # Resource types not loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "waitForSelector": str,  # Wait until this CSS selector matches (at most 500 characters).
        "bestAttempt": bool,  # On a timeout, fall back to less strict wait strategies and capture anyway (x-service-quality tells which).
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "hideSelectors": List[str],  # CSS selectors set to display:none before capture; no error when nothing matches.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "css": str,  # CSS injected before capture, at most 50 KB.
        "js": str,  # JavaScript run after navigation completes, at most 50 KB.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "userAgent": str,  # User-Agent string, at most 512 characters.
        "geo": Literal["AF", "AL", "DZ", "AR", "AU", "AT", "BD", "BE", "BR", "BG", "CA", "CL", "CN", "CO", "HR", "CZ", "DK", "EG", "EE", "FI", "FR", "DE", "GR", "HK", "HU", "IN", "ID", "IE", "IL", "IT", "JP", "KE", "KR", "LV", "LT", "MY", "MX", "NL", "NZ", "NG", "NO", "PK", "PE", "PH", "PL", "PT", "RO", "RU", "SA", "SG", "SK", "ZA", "ES", "SE", "CH", "TW", "TH", "TR", "UA", "AE", "GB", "US", "VN"],  # Two-letter country to render from (Pro and Enterprise): PNG at 1280x800 through the geo proxy.
        "geoCity": str,  # City within geo, at most 100 characters; requires geo.
        "geoState": str,  # State within geo, at most 100 characters; requires geo.
        "timezone": str,  # IANA time zone the page runs in (Date, Intl), e.g. America/New_York.
        "locale": str,  # BCP 47 locale: navigator.language(s), the Accept-Language header and Intl defaults, e.g. de-DE.
        "mediaType": Literal["screen", "print"],  # CSS media type to emulate: screen (default) or print.
        "reducedMotion": bool,  # Emulate prefers-reduced-motion: reduce.
        "liveMotion": bool,  # Keep animations, transitions and videos running. Default false: they are settled (finite ones at their end, endless ones and videos on their first frame) and carets hidden, so two captures of an unchanged page are identical.
        "requireComplete": bool,  # Fail with 502 CAPTURE_FAILED (not charged) instead of answering an incomplete capture: the wait strategy did not hold, requests were still pending, a font or an image in the captured region had not loaded, or the shot stayed blank while the page was still working.
        "actions": List[Union[CaptureRequestActionsItem, CaptureRequestActionsItem2, CaptureRequestActionsItem3, CaptureRequestActionsItem4, CaptureRequestActionsItem5, CaptureRequestActionsItem6, CaptureRequestActionsItem7]],  # Steps run in order once the page is ready (after js, before delay), all within the timeout. A selector that matches nothing fails the capture naming the step.
        "failOnStatus": List[Union[int, Literal["1xx", "2xx", "3xx", "4xx", "5xx"]]],  # Fail the capture (no credit) when the main document's final HTTP status matches one of these codes or classes. Default: capture whatever the page answers.
        "fields": StructuredFields,  # The fields to read, by name (at most 200 in all, objects 5 levels deep).
        "kind": Literal["product", "article", "organization", "auto"],  # Read a product, an article or an organization from the page's own markup (JSON-LD, microdata, RDFa Lite, Open Graph and Twitter tags, Next.js and Nuxt state); auto: whichever the page describes, in that order.
    },
    total=False,
)


class JsonRequest(_JsonRequestOptional):
    pass


_LinksRequestOptional = TypedDict(
    "_LinksRequestOptional",
    {
        "url": str,  # The public http(s) URL to capture. Exactly one of url, html or markdown.
        "html": str,  # Raw HTML to render, at most 5 MB (UTF-8). Exactly one of url, html or markdown.
        "markdown": str,  # Markdown rendered with the default typography (darkMode gives the dark theme), at most 5 MB.
        "data": Dict[str, Any],  # Mustache data filled into html or markdown ({{var}} escaped, {{{var}}} raw, sections, inverted sections, dotted names); at most 256 KB serialized. Not with url.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "fullPage": bool,  # Capture the full scrollable page (scrolled to load lazy content; at most 16,384 px tall).
        "darkMode": bool,  # Emulate prefers-color-scheme: dark.
        "blockAds": bool,  # Block ads and trackers.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "deviceScaleFactor": float,  # Device pixel ratio.
        "blockResourceTypes": List[Literal["font", "image", "media", "stylesheet", "other"]],  # Resource types not loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "waitForSelector": str,  # Wait until this CSS selector matches (at most 500 characters).
        "bestAttempt": bool,  # On a timeout, fall back to less strict wait strategies and capture anyway (x-service-quality tells which).
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "hideSelectors": List[str],  # CSS selectors set to display:none before capture; no error when nothing matches.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "css": str,  # CSS injected before capture, at most 50 KB.
        "js": str,  # JavaScript run after navigation completes, at most 50 KB.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "userAgent": str,  # User-Agent string, at most 512 characters.
        "geo": Literal["AF", "AL", "DZ", "AR", "AU", "AT", "BD", "BE", "BR", "BG", "CA", "CL", "CN", "CO", "HR", "CZ", "DK", "EG", "EE", "FI", "FR", "DE", "GR", "HK", "HU", "IN", "ID", "IE", "IL", "IT", "JP", "KE", "KR", "LV", "LT", "MY", "MX", "NL", "NZ", "NG", "NO", "PK", "PE", "PH", "PL", "PT", "RO", "RU", "SA", "SG", "SK", "ZA", "ES", "SE", "CH", "TW", "TH", "TR", "UA", "AE", "GB", "US", "VN"],  # Two-letter country to render from (Pro and Enterprise): PNG at 1280x800 through the geo proxy.
        "geoCity": str,  # City within geo, at most 100 characters; requires geo.
        "geoState": str,  # State within geo, at most 100 characters; requires geo.
        "timezone": str,  # IANA time zone the page runs in (Date, Intl), e.g. America/New_York.
        "locale": str,  # BCP 47 locale: navigator.language(s), the Accept-Language header and Intl defaults, e.g. de-DE.
        "mediaType": Literal["screen", "print"],  # CSS media type to emulate: screen (default) or print.
        "reducedMotion": bool,  # Emulate prefers-reduced-motion: reduce.
        "liveMotion": bool,  # Keep animations, transitions and videos running. Default false: they are settled (finite ones at their end, endless ones and videos on their first frame) and carets hidden, so two captures of an unchanged page are identical.
        "requireComplete": bool,  # Fail with 502 CAPTURE_FAILED (not charged) instead of answering an incomplete capture: the wait strategy did not hold, requests were still pending, a font or an image in the captured region had not loaded, or the shot stayed blank while the page was still working.
        "actions": List[Union[CaptureRequestActionsItem, CaptureRequestActionsItem2, CaptureRequestActionsItem3, CaptureRequestActionsItem4, CaptureRequestActionsItem5, CaptureRequestActionsItem6, CaptureRequestActionsItem7]],  # Steps run in order once the page is ready (after js, before delay), all within the timeout. A selector that matches nothing fails the capture naming the step.
        "failOnStatus": List[Union[int, Literal["1xx", "2xx", "3xx", "4xx", "5xx"]]],  # Fail the capture (no credit) when the main document's final HTTP status matches one of these codes or classes. Default: capture whatever the page answers.
        "visibleOnly": bool,  # Only links the page renders (not display:none, visibility:hidden or 0×0).
        "internalOnly": bool,  # Only links to the page's own host.
        "includeNonHttp": bool,  # Also list javascript:, mailto:, tel: and other non-http(s) links.
        "render": Literal["auto", "always", "never"],  # always: the page loaded in the browser; never: its document fetched over HTTP (an html source: taken as given) and read without a browser — no script runs, so js, actions and waitForSelector are refused, and the options of a browser (waitUntil, device, css, …) do not apply; auto: read over HTTP unless the document needs scripts to show its content or the request needs a browser, then in the browser. 1 credit either way; `rendered` in the answer says which.
    },
    total=False,
)


class LinksRequest(_LinksRequestOptional):
    pass


_SnapshotRequestOptional = TypedDict(
    "_SnapshotRequestOptional",
    {
        "url": str,  # The public http(s) URL to capture. Exactly one of url, html or markdown.
        "html": str,  # Raw HTML to render, at most 5 MB (UTF-8). Exactly one of url, html or markdown.
        "markdown": str,  # Markdown rendered with the default typography (darkMode gives the dark theme), at most 5 MB.
        "data": Dict[str, Any],  # Mustache data filled into html or markdown ({{var}} escaped, {{{var}}} raw, sections, inverted sections, dotted names); at most 256 KB serialized. Not with url.
        "format": Literal["png", "jpeg", "webp"],  # The screenshot's format.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "fullPage": bool,  # Capture the full scrollable page (scrolled to load lazy content; at most 16,384 px tall).
        "darkMode": bool,  # Emulate prefers-color-scheme: dark.
        "blockAds": bool,  # Block ads and trackers.
        "quality": int,  # JPEG/WebP quality; ignored for PNG and PDF.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "deviceScaleFactor": float,  # Device pixel ratio.
        "blockResourceTypes": List[Literal["font", "image", "media", "stylesheet", "other"]],  # Resource types not loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "waitForSelector": str,  # Wait until this CSS selector matches (at most 500 characters).
        "bestAttempt": bool,  # On a timeout, fall back to less strict wait strategies and capture anyway (x-service-quality tells which).
        "selector": str,  # Capture only the first element matching this CSS selector (at most 500 characters).
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "hideSelectors": List[str],  # CSS selectors set to display:none before capture; no error when nothing matches.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "resizeWidth": int,  # Downscale the image to this width (never upscales; aspect kept when only one side is given). Images only.
        "resizeHeight": int,  # Downscale the image to this height (never upscales). Images only.
        "css": str,  # CSS injected before capture, at most 50 KB.
        "js": str,  # JavaScript run after navigation completes, at most 50 KB.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "userAgent": str,  # User-Agent string, at most 512 characters.
        "geo": Literal["AF", "AL", "DZ", "AR", "AU", "AT", "BD", "BE", "BR", "BG", "CA", "CL", "CN", "CO", "HR", "CZ", "DK", "EG", "EE", "FI", "FR", "DE", "GR", "HK", "HU", "IN", "ID", "IE", "IL", "IT", "JP", "KE", "KR", "LV", "LT", "MY", "MX", "NL", "NZ", "NG", "NO", "PK", "PE", "PH", "PL", "PT", "RO", "RU", "SA", "SG", "SK", "ZA", "ES", "SE", "CH", "TW", "TH", "TR", "UA", "AE", "GB", "US", "VN"],  # Two-letter country to render from (Pro and Enterprise): PNG at 1280x800 through the geo proxy.
        "geoCity": str,  # City within geo, at most 100 characters; requires geo.
        "geoState": str,  # State within geo, at most 100 characters; requires geo.
        "clip": CaptureRequestClip,  # Capture exactly this rectangle, in CSS px. Without fullPage it must lie inside the viewport; with fullPage the coordinates are page coordinates and it must lie inside the page.
        "omitBackground": bool,  # PNG/WebP: a transparent background where the page paints none (alpha 0 at unpainted pixels).
        "timezone": str,  # IANA time zone the page runs in (Date, Intl), e.g. America/New_York.
        "locale": str,  # BCP 47 locale: navigator.language(s), the Accept-Language header and Intl defaults, e.g. de-DE.
        "mediaType": Literal["screen", "print"],  # CSS media type to emulate: screen (default) or print.
        "reducedMotion": bool,  # Emulate prefers-reduced-motion: reduce.
        "liveMotion": bool,  # Keep animations, transitions and videos running. Default false: they are settled (finite ones at their end, endless ones and videos on their first frame) and carets hidden, so two captures of an unchanged page are identical.
        "requireComplete": bool,  # Fail with 502 CAPTURE_FAILED (not charged) instead of answering an incomplete capture: the wait strategy did not hold, requests were still pending, a font or an image in the captured region had not loaded, or the shot stayed blank while the page was still working.
        "actions": List[Union[CaptureRequestActionsItem, CaptureRequestActionsItem2, CaptureRequestActionsItem3, CaptureRequestActionsItem4, CaptureRequestActionsItem5, CaptureRequestActionsItem6, CaptureRequestActionsItem7]],  # Steps run in order once the page is ready (after js, before delay), all within the timeout. A selector that matches nothing fails the capture naming the step.
        "failOnStatus": List[Union[int, Literal["1xx", "2xx", "3xx", "4xx", "5xx"]]],  # Fail the capture (no credit) when the main document's final HTTP status matches one of these codes or classes. Default: capture whatever the page answers.
        "stripScripts": bool,  # Remove <script> elements, on* event-handler attributes and javascript: URLs from the rendered HTML.
    },
    total=False,
)


class SnapshotRequest(_SnapshotRequestOptional):
    pass


_DestinationRequestRequired = TypedDict(
    "_DestinationRequestRequired",
    {
        "name": str,
        "endpoint": str,
        "bucket": str,
        "accessKeyId": str,
        "secretAccessKey": str,
    },
)

_DestinationRequestOptional = TypedDict(
    "_DestinationRequestOptional",
    {
        "region": str,
        "pathStyle": bool,
        "prefix": str,
        "acl": Literal["private", "public-read"],
        "storageClass": str,
        "deliverOnly": bool,
    },
    total=False,
)


class DestinationRequest(_DestinationRequestRequired, _DestinationRequestOptional):
    pass


_CrawlRequestRequired = TypedDict(
    "_CrawlRequestRequired",
    {
        "url": str,  # The start URL: a public http(s) URL.
    },
)

_CrawlRequestOptional = TypedDict(
    "_CrawlRequestOptional",
    {
        "scope": Literal["path", "host", "domain"],  # path: under the start URL's path; host: the start URL's host; domain: its registrable domain, subdomains included.
        "include": List[str],  # URL path globs a page must match (`*` within a segment, `**` across segments). At most 20.
        "exclude": List[str],  # URL path globs a page must not match (`*` within a segment, `**` across segments). At most 20.
        "sitemap": Literal["include", "skip", "only"],  # include: seed from robots.txt Sitemap: lines and /sitemap.xml (indexes and .xml.gz too) and follow links; skip: links only; only: sitemap URLs only.
        "limit": int,  # Pages to render at most (each plan caps it: Free 10, Basic 50, Starter 100, Pro 1,000, Enterprise 20,000).
        "maxDepth": int,  # Links followed from the start page (sitemap URLs enter at depth 1).
        "formats": List[Literal["markdown", "html", "text", "links", "metadata", "screenshot", "json"]],  # What each page becomes: markdown (reader mode), html (rendered DOM), text (visible text), links, metadata (title, Open Graph), screenshot (PNG, hosted URL; +1 credit), json (`fields` and/or `kind`, as POST /v1/json reads them).
        "fields": StructuredFields,  # The json format: fields by selector, read on every page as POST /v1/json reads them.
        "kind": Literal["product", "article", "organization", "auto"],  # The json format: a product, article or organization read from every page's own markup, as POST /v1/json reads it.
        "followNofollow": bool,  # Follow links marked rel="nofollow".
        "maxConcurrency": int,  # Pages of one host loaded at once (politeness; robots.txt Crawl-delay still spaces their starts): by default 2, or 4 with render never/auto. The crawl loads at most the larger of this and 4 (8 with render never/auto) pages at once.
        "render": Literal["auto", "always", "never"],  # always: every page in the browser (1 credit); never: every page fetched over HTTP and converted without a browser (half a credit, billed 1 per 2 pages; no screenshot or json format); auto: fetched over HTTP first, in the browser only when the document needs scripts to show its content (an empty app root, no readable text). Each page says which in `rendered`.
        "maxAge": int,  # Incremental crawls: reuse a page this account's crawls loaded within this many seconds with the same formats, render and page options (reason cached, free); an older one is asked again with a conditional request when the site gave an ETag or Last-Modified (a 304: reason not_modified, free). 0: always ask. At most 604800 (7 days).
        "modifiedSince": str,  # Incremental crawls: pages not changed since then are skipped (reason not_modified, free): a sitemap <lastmod> before it (never requested), a Last-Modified before it, or a 304 to a conditional request. Their links are still followed when known.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "blockAds": bool,  # Block ads and trackers.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "webhookUrl": str,  # Signed events of this crawl are POSTed here.
        "webhookEvents": List[Literal["crawl.completed", "crawl.page"]],  # Events sent to webhookUrl.
        "dryRun": bool,  # Start nothing and charge nothing: answer the URLs the sitemaps and the start page's links give now (up to `limit`) and what the crawl would cost.
    },
    total=False,
)


class CrawlRequest(_CrawlRequestRequired, _CrawlRequestOptional):
    pass


_MapRequestRequired = TypedDict(
    "_MapRequestRequired",
    {
        "url": str,  # The start URL: a public http(s) URL.
    },
)

_MapRequestOptional = TypedDict(
    "_MapRequestOptional",
    {
        "scope": Literal["path", "host", "domain"],  # path: under the start URL's path; host: the start URL's host; domain: its registrable domain, subdomains included.
        "include": List[str],  # URL path globs a page must match (`*` within a segment, `**` across segments). At most 20.
        "exclude": List[str],  # URL path globs a page must not match (`*` within a segment, `**` across segments). At most 20.
        "sitemap": Literal["include", "skip", "only"],  # include: seed from robots.txt Sitemap: lines and /sitemap.xml (indexes and .xml.gz too) and follow links; skip: links only; only: sitemap URLs only.
        "limit": int,  # URLs to return at most (each plan caps it: Free, Basic and Starter 5,000, Pro 10,000, Enterprise 100,000).
    },
    total=False,
)


class MapRequest(_MapRequestRequired, _MapRequestOptional):
    pass


_MonitorScheduleOptional = TypedDict(
    "_MonitorScheduleOptional",
    {
        "intervalMinutes": int,  # Minutes between checks: at least the plan's floor (Free 1440, Basic 360, Starter 60, Pro 30, Enterprise 5).
        "cron": str,  # A cron expression in UTC (`0 6 * * 1-5`); two runs may be no closer than the plan's floor.
    },
    total=False,
)


class MonitorSchedule(_MonitorScheduleOptional):
    "When checks run. Default: every 1440 minutes."


_MonitorFieldRequired = TypedDict(
    "_MonitorFieldRequired",
    {
        "name": str,
        "selector": str,
    },
)

_MonitorFieldOptional = TypedDict(
    "_MonitorFieldOptional",
    {
        "attribute": str,  # Read this attribute instead of the element's text.
    },
    total=False,
)


class MonitorField(_MonitorFieldRequired, _MonitorFieldOptional):
    pass


_MonitorRequestAlertsItemRequired = TypedDict(
    "_MonitorRequestAlertsItemRequired",
    {
        "field": str,  # A field of `fields` (top level) whose value the rule reads.
        "rule": Literal["changed", "increased", "decreased", "above", "below", "becomes", "stopsBeing"],  # changed: the value differs from the last good run's; increased / decreased: by at least `byPercent` (numbers); above / below: crosses `value` (numbers); becomes / stopsBeing: turns into, or stops being, `value` (back in stock).
    },
)

_MonitorRequestAlertsItemOptional = TypedDict(
    "_MonitorRequestAlertsItemOptional",
    {
        "byPercent": float,  # increased / decreased: the least change, in percent of the last value (default 0).
        "value": Union[float, str, bool],  # above / below: a number; becomes / stopsBeing: the value compared with.
        "onFirstRun": bool,  # Fire on the first run with these fields when the condition already holds (above, below, becomes, stopsBeing).
    },
    total=False,
)


class MonitorRequestAlertsItem(_MonitorRequestAlertsItemRequired, _MonitorRequestAlertsItemOptional):
    "An alert rule on a field."


_MonitorRegionRequired = TypedDict(
    "_MonitorRegionRequired",
    {
        "x": int,
        "y": int,
        "width": int,
        "height": int,
    },
)


class MonitorRegion(_MonitorRegionRequired):
    "A box in CSS px of the captured viewport."


_MonitorRequestRequired = TypedDict(
    "_MonitorRequestRequired",
    {
        "url": str,  # The start URL: a public http(s) URL.
    },
)

_MonitorRequestOptional = TypedDict(
    "_MonitorRequestOptional",
    {
        "scope": Literal["path", "host", "domain"],  # path: under the start URL's path; host: the start URL's host; domain: its registrable domain, subdomains included.
        "include": List[str],  # URL path globs a page must match (`*` within a segment, `**` across segments). At most 20.
        "exclude": List[str],  # URL path globs a page must not match (`*` within a segment, `**` across segments). At most 20.
        "sitemap": Literal["include", "skip", "only"],  # include: seed from robots.txt Sitemap: lines and /sitemap.xml (indexes and .xml.gz too) and follow links; skip: links only; only: sitemap URLs only.
        "name": str,  # A label of your choice.
        "schedule": MonitorSchedule,
        "limit": int,  # Pages a check covers at most (each plan caps it: Free 10, Basic 50, Starter 100, Pro 1,000, Enterprise 10,000).
        "maxDepth": int,  # Links followed from the start page (sitemap URLs enter at depth 1).
        "followNofollow": bool,  # Follow links marked rel="nofollow".
        "compare": List[Literal["visual", "text", "fields"]],  # What counts as a change: visual (pixels outside masks), text (words of the visible text), fields (title, description, canonical, status code and `fields`).
        "fields": List[MonitorField],  # Named selectors whose first match's text (or attribute) is compared.
        "alerts": List[MonitorRequestAlertsItem],  # Rules on a page's fields (a name of `fields`, or title, description, canonical, statusCode), as a watch's alerts: a page where one fires is changed, and its report says which rule fired with the old and new values. Number rules read text as a number in any locale.
        "ignore": List[str],  # Selectors hidden before every capture: never a change, in pixels or text.
        "ignoreRegions": List[MonitorRegion],  # Boxes of the viewport whose pixels are never compared.
        "learnVolatile": bool,  # Capture each page twice when first seen and mask what differs between the two (clocks, rotating banners, ads).
        "minChangedPixels": int,  # Fewer changed pixels (outside masks) than this are no visual change.
        "minChangedWords": int,  # Fewer changed words than this are no text change.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "blockAds": bool,  # Block ads and trackers.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "webhookUrl": str,  # Signed events of this monitor are POSTed here.
        "webhookEvents": List[Literal["monitor.check.completed", "monitor.page.changed", "monitor.page.new", "monitor.page.removed", "monitor.page.failed"]],  # Events sent to webhookUrl.
        "paused": bool,  # Create it paused: no check runs until it is resumed.
        "dryRun": bool,  # Create nothing and charge nothing: answer the URLs a check would cover and its credits per check and per month.
    },
    total=False,
)


class MonitorRequest(_MonitorRequestRequired, _MonitorRequestOptional):
    pass


_MonitorPatchOptional = TypedDict(
    "_MonitorPatchOptional",
    {
        "name": Optional[str],
        "schedule": MonitorSchedule,
        "include": List[str],  # URL path globs a page must match (`*` within a segment, `**` across segments). At most 20.
        "exclude": List[str],  # URL path globs a page must not match (`*` within a segment, `**` across segments). At most 20.
        "limit": int,  # Pages a check covers at most (each plan caps it: Free 10, Basic 50, Starter 100, Pro 1,000, Enterprise 10,000).
        "maxDepth": int,  # Links followed from the start page (sitemap URLs enter at depth 1).
        "followNofollow": bool,  # Follow links marked rel="nofollow".
        "compare": List[Literal["visual", "text", "fields"]],  # What counts as a change: visual (pixels outside masks), text (words of the visible text), fields (title, description, canonical, status code and `fields`).
        "fields": List[MonitorField],  # Named selectors whose first match's text (or attribute) is compared.
        "alerts": List[MonitorRequestAlertsItem],  # Rules on a page's fields (a name of `fields`, or title, description, canonical, statusCode), as a watch's alerts: a page where one fires is changed, and its report says which rule fired with the old and new values. Number rules read text as a number in any locale.
        "ignore": List[str],  # Selectors hidden before every capture: never a change, in pixels or text.
        "ignoreRegions": List[MonitorRegion],  # Boxes of the viewport whose pixels are never compared.
        "learnVolatile": bool,  # Capture each page twice when first seen and mask what differs between the two (clocks, rotating banners, ads).
        "minChangedPixels": int,  # Fewer changed pixels (outside masks) than this are no visual change.
        "minChangedWords": int,  # Fewer changed words than this are no text change.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "blockAds": bool,  # Block ads and trackers.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "webhookUrl": Optional[str],
        "webhookEvents": List[Literal["monitor.check.completed", "monitor.page.changed", "monitor.page.new", "monitor.page.removed", "monitor.page.failed"]],  # Events sent to webhookUrl.
        "paused": bool,
    },
    total=False,
)


class MonitorPatch(_MonitorPatchOptional):
    pass


_WebhookTestRequestRequired = TypedDict(
    "_WebhookTestRequestRequired",
    {
        "url": str,  # A public https URL (as a job's webhookUrl) to send a signed test.ping to.
    },
)


class WebhookTestRequest(_WebhookTestRequestRequired):
    pass


_DeliveryRequired = TypedDict(
    "_DeliveryRequired",
    {
        "destinationId": str,
        "bucket": str,
        "key": str,
        "url": str,
        "etag": Optional[str],
    },
)


class Delivery(_DeliveryRequired):
    pass


_CompletenessImagesRequired = TypedDict(
    "_CompletenessImagesRequired",
    {
        "loaded": int,
        "total": int,
    },
)


class CompletenessImages(_CompletenessImagesRequired):
    "<img> elements in the captured region with a source, and how many of them loaded."


_CompletenessRequired = TypedDict(
    "_CompletenessRequired",
    {
        "blankRatio": Optional[float],  # Share (0-1) of the shot in its most common colour, read from the first image output (a PNG's own pixels; a JPEG or WebP: a thumbnail of the captured region); null for PDF-only captures and element (selector) captures in JPEG or WebP.
        "pendingRequests": int,  # The page's requests still in flight when the shot was taken (not the browser's favicon fetch).
        "failedRequests": int,  # Subresource requests that failed (network error or HTTP status 400+), not counting the ones the capture refused itself (ads, blocked resource types).
        "fontsLoaded": bool,  # No web font was still loading when the shot was taken.
        "images": CompletenessImages,  # <img> elements in the captured region with a source, and how many of them loaded.
        "lazyTriggered": int,  # Requests started after the page was ready: lazy images and frames, what scrolling woke, what the page loaded while it settled.
        "scrolledPx": int,  # How far down the page was scrolled to wake lazy content (CSS px).
        "retried": bool,  # The shot looked blank while the page was still working: it was taken again once.
        "consentRemoved": int,  # Consent walls hidden (blockCookieBanners).
        "adsBlocked": int,  # Requests to ad and tracker hosts refused (blockAds).
    },
)


class Completeness(_CompletenessRequired):
    pass


_JobCompletedEventMetadataRequired = TypedDict(
    "_JobCompletedEventMetadataRequired",
    {
        "url": Optional[str],
        "format": str,
        "width": float,
        "height": float,
        "loadTimeMs": float,
    },
)

_JobCompletedEventMetadataOptional = TypedDict(
    "_JobCompletedEventMetadataOptional",
    {
        "completeness": Optional[Completeness],  # How complete the capture is (as in JSON answers); absent for jobs completed before it was recorded.
        "frames": int,  # A recording job's frames (POST /v1/animate).
        "durationMs": int,  # A recording job's clip length in milliseconds.
    },
    total=False,
)


class JobCompletedEventMetadata(_JobCompletedEventMetadataRequired, _JobCompletedEventMetadataOptional):
    pass


_JobCompletedEventRequired = TypedDict(
    "_JobCompletedEventRequired",
    {
        "event": Literal["job.completed"],
        "jobId": str,
        "status": Literal["completed"],
        "completedAt": Optional[str],
    },
)

_JobCompletedEventOptional = TypedDict(
    "_JobCompletedEventOptional",
    {
        "resultUrl": str,  # Signed URL of the result (or its bucket URL).
        "storage": Delivery,  # Where the result went, for storage destinations.
        "metadata": JobCompletedEventMetadata,
    },
    total=False,
)


class JobCompletedEvent(_JobCompletedEventRequired, _JobCompletedEventOptional):
    "An async capture finished."


_JobFailedEventRequired = TypedDict(
    "_JobFailedEventRequired",
    {
        "event": Literal["job.failed"],
        "jobId": str,
        "status": Literal["failed"],
        "error": Optional[str],  # Sanitized, user-facing reason: one of a fixed list.
        "completedAt": Optional[str],
    },
)

_JobFailedEventOptional = TypedDict(
    "_JobFailedEventOptional",
    {
        "errorDetail": str,  # The whole cause, as the same request made synchronously names it (the selector that matched nothing, the status that failed the page), when it says more than `error`.
    },
    total=False,
)


class JobFailedEvent(_JobFailedEventRequired, _JobFailedEventOptional):
    "An async capture failed after all retries."


_BatchCompletedEventJobsItemRequired = TypedDict(
    "_BatchCompletedEventJobsItemRequired",
    {
        "jobId": str,
        "url": Optional[str],
        "status": Literal["completed", "failed"],
    },
)

_BatchCompletedEventJobsItemOptional = TypedDict(
    "_BatchCompletedEventJobsItemOptional",
    {
        "resultUrl": str,
        "storage": Delivery,
        "error": Optional[str],
        "errorDetail": str,  # The whole cause, as the same request made synchronously names it (the selector that matched nothing, the status that failed the page), when it says more than `error`.
    },
    total=False,
)


class BatchCompletedEventJobsItem(_BatchCompletedEventJobsItemRequired, _BatchCompletedEventJobsItemOptional):
    pass


_BatchCompletedEventRequired = TypedDict(
    "_BatchCompletedEventRequired",
    {
        "event": Literal["batch.completed"],
        "batchId": str,
        "status": Literal["queued", "processing", "completed"],
        "outcome": Optional[Literal["succeeded", "partial", "failed"]],
        "totalJobs": int,
        "completedJobs": int,
        "failedJobs": int,
        "completedAt": Optional[str],
        "jobs": List[BatchCompletedEventJobsItem],
    },
)


class BatchCompletedEvent(_BatchCompletedEventRequired):
    "Every job of a batch finished (one event per batch, none per job)."


_CrawlCompletedEventCountsRequired = TypedDict(
    "_CrawlCompletedEventCountsRequired",
    {
        "rendered": int,
        "skipped": int,
        "failed": int,
        "queued": int,
        "cached": int,  # Of the skipped pages: reused from an earlier crawl of the account (maxAge).
        "notModified": int,  # Of the skipped pages: unchanged since modifiedSince (sitemap lastmod, Last-Modified) or answered 304 to a conditional request.
    },
)


class CrawlCompletedEventCounts(_CrawlCompletedEventCountsRequired):
    pass


_CrawlCompletedEventRequired = TypedDict(
    "_CrawlCompletedEventRequired",
    {
        "crawlId": str,
        "url": str,
        "status": Literal["queued", "running", "completed", "cancelled", "failed"],
        "counts": CrawlCompletedEventCounts,
        "limit": int,
        "creditsUsed": int,
        "createdAt": str,
        "event": Literal["crawl.completed"],
    },
)

_CrawlCompletedEventOptional = TypedDict(
    "_CrawlCompletedEventOptional",
    {
        "stoppedBy": Literal["limit", "credits", "cancelled"],
        "completedAt": str,
    },
    total=False,
)


class CrawlCompletedEvent(_CrawlCompletedEventRequired, _CrawlCompletedEventOptional):
    pass


_CrawlPageEventPageRequired = TypedDict(
    "_CrawlPageEventPageRequired",
    {
        "url": str,
        "depth": int,
        "status": Literal["rendered", "skipped", "failed"],
    },
)

_CrawlPageEventPageOptional = TypedDict(
    "_CrawlPageEventPageOptional",
    {
        "reason": Literal["robots", "pattern", "pattern_budget", "scope", "depth", "blocked", "not_html", "http_error", "timeout", "unreachable", "credits", "cancelled", "capture_failed", "cached", "not_modified"],
        "statusCode": int,
        "foundOn": str,  # The page whose links had this URL first. None for the start URL and URLs from sitemaps.
        "rendered": Literal["http", "browser"],  # How a rendered page was loaded: http (fetched and converted without a browser) or browser. With render: auto, decided page by page.
        "cachedAt": str,  # A page reused rather than loaded again (reason cached, or not_modified after a conditional request): when the result it carries was loaded (ISO 8601).
        "completeness": Completeness,  # Pages rendered in the browser: how complete the page was (its screenshot's report with the screenshot format, else as its content was read: `blankRatio` null). None for pages rendered over http.
    },
    total=False,
)


class CrawlPageEventPage(_CrawlPageEventPageRequired, _CrawlPageEventPageOptional):
    pass


_CrawlPageEventRequired = TypedDict(
    "_CrawlPageEventRequired",
    {
        "event": Literal["crawl.page"],
        "crawlId": str,
        "page": CrawlPageEventPage,
    },
)


class CrawlPageEvent(_CrawlPageEventRequired):
    pass


_MonitorCheckCountsRequired = TypedDict(
    "_MonitorCheckCountsRequired",
    {
        "new": int,
        "removed": int,
        "changed": int,
        "unchanged": int,
        "failed": int,
    },
)


class MonitorCheckCounts(_MonitorCheckCountsRequired):
    pass


_MonitorCheckRequired = TypedDict(
    "_MonitorCheckRequired",
    {
        "checkId": str,
        "monitorId": str,
        "trigger": Literal["created", "schedule", "manual"],
        "status": Literal["queued", "running", "completed", "cancelled", "failed"],
        "counts": MonitorCheckCounts,
        "identical": int,  # Of the unchanged pages, those whose capture was byte-identical to the baseline: no pixel or text diff was needed.
        "creditsUsed": int,
        "baseline": bool,
        "createdAt": str,  # ISO 8601
    },
)

_MonitorCheckOptional = TypedDict(
    "_MonitorCheckOptional",
    {
        "stoppedBy": Literal["limit", "credits", "cancelled"],
        "completedAt": str,  # ISO 8601
    },
    total=False,
)


class MonitorCheck(_MonitorCheckRequired, _MonitorCheckOptional):
    pass


_MonitorCheckCompletedEventPagesItemRequired = TypedDict(
    "_MonitorCheckCompletedEventPagesItemRequired",
    {
        "url": str,
        "status": Literal["new", "removed", "changed", "unchanged", "failed"],
    },
)


class MonitorCheckCompletedEventPagesItem(_MonitorCheckCompletedEventPagesItemRequired):
    pass


_MonitorCheckCompletedEventRequired = TypedDict(
    "_MonitorCheckCompletedEventRequired",
    {
        "event": Literal["monitor.check.completed"],
        "monitorId": str,
        "check": MonitorCheck,
        "pages": List[MonitorCheckCompletedEventPagesItem],
    },
)


class MonitorCheckCompletedEvent(_MonitorCheckCompletedEventRequired):
    pass


_MonitorCheckPageVisualRegionsItemRequired = TypedDict(
    "_MonitorCheckPageVisualRegionsItemRequired",
    {
        "x": float,
        "y": float,
        "width": float,
        "height": float,
    },
)


class MonitorCheckPageVisualRegionsItem(_MonitorCheckPageVisualRegionsItemRequired):
    pass


_MonitorCheckPageVisualRequired = TypedDict(
    "_MonitorCheckPageVisualRequired",
    {
        "changedPixels": int,
        "changedPercent": float,
        "regions": List[MonitorCheckPageVisualRegionsItem],  # Bounding boxes of the changed areas, CSS px.
        "beforeUrl": str,
        "afterUrl": str,
        "diffUrl": str,
    },
)


class MonitorCheckPageVisual(_MonitorCheckPageVisualRequired):
    pass


_MonitorCheckPageTextPartsItemRequired = TypedDict(
    "_MonitorCheckPageTextPartsItemRequired",
    {
        "op": Literal["added", "removed"],
        "text": str,
    },
)


class MonitorCheckPageTextPartsItem(_MonitorCheckPageTextPartsItemRequired):
    pass


_MonitorCheckPageTextRequired = TypedDict(
    "_MonitorCheckPageTextRequired",
    {
        "added": int,  # Words added.
        "removed": int,  # Words removed.
        "parts": List[MonitorCheckPageTextPartsItem],
        "truncated": bool,
    },
)


class MonitorCheckPageText(_MonitorCheckPageTextRequired):
    pass


_MonitorCheckPageFieldsItemRequired = TypedDict(
    "_MonitorCheckPageFieldsItemRequired",
    {
        "name": str,
        "before": Optional[str],
        "after": Optional[str],
    },
)


class MonitorCheckPageFieldsItem(_MonitorCheckPageFieldsItemRequired):
    pass


_MonitorCheckPageAlertsItemRequired = TypedDict(
    "_MonitorCheckPageAlertsItemRequired",
    {
        "field": str,
        "rule": Literal["changed", "increased", "decreased", "above", "below", "becomes", "stopsBeing"],
        "previous": Optional[Union[str, float, bool]],  # The value at the last good run (null on the first run).
        "current": Optional[Union[str, float, bool]],  # The value now.
    },
)

_MonitorCheckPageAlertsItemOptional = TypedDict(
    "_MonitorCheckPageAlertsItemOptional",
    {
        "byPercent": float,
        "value": Union[float, str, bool],
    },
    total=False,
)


class MonitorCheckPageAlertsItem(_MonitorCheckPageAlertsItemRequired, _MonitorCheckPageAlertsItemOptional):
    "An alert rule that fired."


_MonitorCheckPageMaskedRequired = TypedDict(
    "_MonitorCheckPageMaskedRequired",
    {
        "regions": List[MonitorCheckPageVisualRegionsItem],  # Volatile and ignored boxes left out of the pixel diff.
        "lines": int,  # Volatile lines left out of the text diff.
    },
)


class MonitorCheckPageMasked(_MonitorCheckPageMaskedRequired):
    pass


_MonitorCheckPageRequired = TypedDict(
    "_MonitorCheckPageRequired",
    {
        "url": str,
        "status": Literal["new", "removed", "changed", "unchanged", "failed"],
    },
)

_MonitorCheckPageOptional = TypedDict(
    "_MonitorCheckPageOptional",
    {
        "reason": str,  # Why a page failed (as a crawl page's).
        "statusCode": int,
        "screenshotUrl": str,  # A new page's capture (signed).
        "completeness": Completeness,  # New and changed pages: how complete this check's capture of the page was.
        "visual": MonitorCheckPageVisual,
        "text": MonitorCheckPageText,
        "fields": List[MonitorCheckPageFieldsItem],
        "alerts": List[MonitorCheckPageAlertsItem],  # The monitor's alert rules that fired on this page.
        "masked": MonitorCheckPageMasked,
    },
    total=False,
)


class MonitorCheckPage(_MonitorCheckPageRequired, _MonitorCheckPageOptional):
    pass


_MonitorPageEventRequired = TypedDict(
    "_MonitorPageEventRequired",
    {
        "event": Literal["monitor.page.changed", "monitor.page.new", "monitor.page.removed", "monitor.page.failed"],
        "monitorId": str,
        "checkId": str,
        "page": MonitorCheckPage,
    },
)


class MonitorPageEvent(_MonitorPageEventRequired):
    pass


_TestPingEventRequired = TypedDict(
    "_TestPingEventRequired",
    {
        "event": Literal["test.ping"],
        "deliveryId": str,
        "accountId": str,
        "sentAt": str,
    },
)


class TestPingEvent(_TestPingEventRequired):
    "Sent by POST /v1/webhooks/test, signed like every event."


_ErrorDetailRequired = TypedDict(
    "_ErrorDetailRequired",
    {
        "path": str,
        "message": str,
    },
)


class ErrorDetail(_ErrorDetailRequired):
    pass


_UsageRequired = TypedDict(
    "_UsageRequired",
    {
        "credits": int,
        "remaining": Optional[int],
    },
)


class Usage(_UsageRequired):
    pass


_MetaRequired = TypedDict(
    "_MetaRequired",
    {
        "requestId": str,
        "timestamp": str,
    },
)

_MetaOptional = TypedDict(
    "_MetaOptional",
    {
        "usage": Usage,
    },
    total=False,
)


class Meta(_MetaRequired, _MetaOptional):
    pass


_ServiceIndexRequired = TypedDict(
    "_ServiceIndexRequired",
    {
        "name": str,
        "version": str,
        "docs": str,
        "openapi": str,
        "health": str,
        "endpoints": Dict[str, str],
    },
)


class ServiceIndex(_ServiceIndexRequired):
    pass


_HealthRequired = TypedDict(
    "_HealthRequired",
    {
        "status": Literal["ok"],
        "product": str,
        "version": str,
        "timestamp": str,
    },
)


class Health(_HealthRequired):
    pass


_HostedCaptureRequired = TypedDict(
    "_HostedCaptureRequired",
    {
        "url": str,
        "expiresAt": str,
        "contentType": str,
        "format": Literal["png", "jpeg", "webp", "pdf"],
        "width": int,
        "height": int,
        "bytesSize": int,
    },
)


class HostedCapture(_HostedCaptureRequired):
    pass


_JobAcceptedRequired = TypedDict(
    "_JobAcceptedRequired",
    {
        "jobId": str,
        "status": Literal["queued"],
    },
)


class JobAccepted(_JobAcceptedRequired):
    pass


_CompletenessOutputImagesRequired = TypedDict(
    "_CompletenessOutputImagesRequired",
    {
        "loaded": int,
        "total": int,
    },
)


class CompletenessOutputImages(_CompletenessOutputImagesRequired):
    "<img> elements in the captured region with a source, and how many of them loaded."


_CompletenessOutputRequired = TypedDict(
    "_CompletenessOutputRequired",
    {
        "blankRatio": Optional[float],  # Share (0-1) of the shot in its most common colour, read from the first image output (a PNG's own pixels; a JPEG or WebP: a thumbnail of the captured region); null for PDF-only captures and element (selector) captures in JPEG or WebP.
        "pendingRequests": int,  # The page's requests still in flight when the shot was taken (not the browser's favicon fetch).
        "failedRequests": int,  # Subresource requests that failed (network error or HTTP status 400+), not counting the ones the capture refused itself (ads, blocked resource types).
        "fontsLoaded": bool,  # No web font was still loading when the shot was taken.
        "images": CompletenessOutputImages,  # <img> elements in the captured region with a source, and how many of them loaded.
        "lazyTriggered": int,  # Requests started after the page was ready: lazy images and frames, what scrolling woke, what the page loaded while it settled.
        "scrolledPx": int,  # How far down the page was scrolled to wake lazy content (CSS px).
        "retried": bool,  # The shot looked blank while the page was still working: it was taken again once.
        "consentRemoved": int,  # Consent walls hidden (blockCookieBanners).
        "adsBlocked": int,  # Requests to ad and tracker hosts refused (blockAds).
    },
)


class CompletenessOutput(_CompletenessOutputRequired):
    pass


_CaptureJsonMetadataOpenGraphRequired = TypedDict(
    "_CaptureJsonMetadataOpenGraphRequired",
    {
        "title": str,
        "description": str,
        "image": str,
        "siteName": str,
    },
)


class CaptureJsonMetadataOpenGraph(_CaptureJsonMetadataOpenGraphRequired):
    "The page's og:title, og:description, og:image and og:site_name."


_CaptureJsonMetadataRequired = TypedDict(
    "_CaptureJsonMetadataRequired",
    {
        "title": str,  # The page's <title>.
        "finalUrl": str,  # Where the page ended up after redirects.
        "targetStatus": Optional[int],  # The main document's final HTTP status; null for html/markdown sources.
        "openGraph": CaptureJsonMetadataOpenGraph,  # The page's og:title, og:description, og:image and og:site_name.
    },
)

_CaptureJsonMetadataOptional = TypedDict(
    "_CaptureJsonMetadataOptional",
    {
        "watermarked": Literal[True],  # Free plan: the output carries a watermark.
    },
    total=False,
)


class CaptureJsonMetadata(_CaptureJsonMetadataRequired, _CaptureJsonMetadataOptional):
    "Facts read from the captured page."


_ExtractionRequired = TypedDict(
    "_ExtractionRequired",
    {
        "url": str,
        "format": Literal["markdown", "json", "html"],
        "content": str,
        "title": str,
        "byline": str,
        "excerpt": str,
        "siteName": str,
        "length": int,
        "loadTimeMs": float,
    },
)

_ExtractionOptional = TypedDict(
    "_ExtractionOptional",
    {
        "rendered": Literal["http", "browser"],  # POST /v1/extract: how the page was read — http (fetched, no browser) or browser (see `render`).
    },
    total=False,
)


class Extraction(_ExtractionRequired, _ExtractionOptional):
    pass


_CaptureJsonExtractionErrorRequired = TypedDict(
    "_CaptureJsonExtractionErrorRequired",
    {
        "code": str,
        "message": str,
    },
)


class CaptureJsonExtractionError(_CaptureJsonExtractionErrorRequired):
    pass


_CaptureJsonRequired = TypedDict(
    "_CaptureJsonRequired",
    {
        "image": str,
        "contentType": str,
        "url": str,
        "width": int,
        "height": int,
        "format": Literal["png", "jpeg", "webp", "pdf"],
        "bytesSize": int,
        "capturedAt": str,
        "quality": str,
        "completeness": Optional[CompletenessOutput],  # How complete the capture is; null for geo captures (rendered by the geo provider).
        "waitStrategy": str,
        "loadTimeMs": float,
        "metadata": CaptureJsonMetadata,  # Facts read from the captured page.
    },
)

_CaptureJsonOptional = TypedDict(
    "_CaptureJsonOptional",
    {
        "pages": int,  # PDF only: the number of pages printed (after pdfPageRanges).
        "extracted": Optional[Extraction],
        "extractionError": CaptureJsonExtractionError,
    },
    total=False,
)


class CaptureJson(_CaptureJsonRequired, _CaptureJsonOptional):
    pass


_BatchAcceptedJobsItemRequired = TypedDict(
    "_BatchAcceptedJobsItemRequired",
    {
        "jobId": str,
        "url": Optional[str],
        "status": Literal["queued"],
    },
)


class BatchAcceptedJobsItem(_BatchAcceptedJobsItemRequired):
    pass


_BatchAcceptedRequired = TypedDict(
    "_BatchAcceptedRequired",
    {
        "batchId": str,
        "status": Literal["queued"],
        "totalJobs": int,
        "jobs": List[BatchAcceptedJobsItem],
    },
)


class BatchAccepted(_BatchAcceptedRequired):
    pass


_DeliveryOutputRequired = TypedDict(
    "_DeliveryOutputRequired",
    {
        "destinationId": str,
        "bucket": str,
        "key": str,
        "url": str,
        "etag": Optional[str],
    },
)


class DeliveryOutput(_DeliveryOutputRequired):
    pass


_JobMetadataRequired = TypedDict(
    "_JobMetadataRequired",
    {
        "url": Optional[str],
        "format": str,
        "width": float,
        "height": float,
        "loadTimeMs": float,
    },
)

_JobMetadataOptional = TypedDict(
    "_JobMetadataOptional",
    {
        "completeness": Optional[CompletenessOutput],  # How complete the capture is (as in JSON answers); absent for jobs completed before it was recorded.
        "frames": int,  # A recording job's frames (POST /v1/animate).
        "durationMs": int,  # A recording job's clip length in milliseconds.
    },
    total=False,
)


class JobMetadata(_JobMetadataRequired, _JobMetadataOptional):
    pass


_WebhookStateRequired = TypedDict(
    "_WebhookStateRequired",
    {
        "deliveryId": Optional[str],
        "status": Literal["pending", "delivered", "failed"],
        "delivered": bool,
        "attempts": int,
        "lastStatus": Optional[int],
        "lastError": Optional[str],
        "lastAttemptAt": Optional[str],
    },
)


class WebhookState(_WebhookStateRequired):
    pass


_JobRequired = TypedDict(
    "_JobRequired",
    {
        "jobId": str,
        "batchId": Optional[str],
        "status": Literal["queued", "processing", "completed", "failed"],
        "url": Optional[str],
        "format": str,
        "error": Optional[str],  # Sanitized, user-facing reason: one of a fixed list.
        "createdAt": str,
        "startedAt": Optional[str],
        "completedAt": Optional[str],
    },
)

_JobOptional = TypedDict(
    "_JobOptional",
    {
        "resultUrl": str,
        "storage": DeliveryOutput,
        "errorDetail": str,  # The whole cause, as the same request made synchronously names it (the selector that matched nothing, the status that failed the page), when it says more than `error`.
        "metadata": JobMetadata,
        "webhook": WebhookState,
    },
    total=False,
)


class Job(_JobRequired, _JobOptional):
    pass


_BatchRequired = TypedDict(
    "_BatchRequired",
    {
        "batchId": str,
        "status": Literal["queued", "processing", "completed"],
        "outcome": Optional[Literal["succeeded", "partial", "failed"]],
        "totalJobs": int,
        "completedJobs": int,
        "failedJobs": int,
        "createdAt": str,
        "completedAt": Optional[str],
    },
)

_BatchOptional = TypedDict(
    "_BatchOptional",
    {
        "webhook": WebhookState,
        "jobs": List[Job],
    },
    total=False,
)


class Batch(_BatchRequired, _BatchOptional):
    pass


_RenderLinkRequired = TypedDict(
    "_RenderLinkRequired",
    {
        "url": str,
        "expiresAt": str,
        "format": Literal["png", "jpeg", "webp", "pdf"],
        "cacheTtl": int,
    },
)


class RenderLink(_RenderLinkRequired):
    pass


_ArtifactFailedItemRequired = TypedDict(
    "_ArtifactFailedItemRequired",
    {
        "format": Literal["pdf", "png"],
        "code": str,
        "message": str,
    },
)


class ArtifactFailedItem(_ArtifactFailedItemRequired):
    pass


_ArtifactMetadataRequired = TypedDict(
    "_ArtifactMetadataRequired",
    {
        "watermarked": bool,
    },
)


class ArtifactMetadata(_ArtifactMetadataRequired):
    pass


_ArtifactRequired = TypedDict(
    "_ArtifactRequired",
    {
        "shareUrl": str,
        "expiresAt": str,
        "title": str,
    },
)

_ArtifactOptional = TypedDict(
    "_ArtifactOptional",
    {
        "pdfUrl": str,
        "pngUrl": str,
        "failed": List[ArtifactFailedItem],
        "metadata": ArtifactMetadata,
    },
    total=False,
)


class Artifact(_ArtifactRequired, _ArtifactOptional):
    pass


_HostedAnimationRequired = TypedDict(
    "_HostedAnimationRequired",
    {
        "url": str,  # Signed URL of the video or GIF.
        "expiresAt": str,
        "contentType": str,
        "format": Literal["webm", "mp4", "gif"],
        "width": int,  # Frame width in device pixels.
        "height": int,  # Frame height in device pixels.
        "frames": int,
        "durationMs": int,
        "bytesSize": int,
        "finalUrl": str,
        "loadTimeMs": int,
    },
)


class HostedAnimation(_HostedAnimationRequired):
    pass


_PageContentRequired = TypedDict(
    "_PageContentRequired",
    {
        "url": str,
        "capturedAt": str,
        "quality": str,
        "waitStrategy": str,
        "loadTimeMs": float,
        "completeness": Optional[CompletenessOutput],  # How complete the page was when it was read (docs/CAPTURE.md, "Complete captures"): with no shot taken (all but /v1/snapshot), nothing is waited for, `blankRatio` is null and images count over the whole document. Null when no browser loaded the page (`rendered: "http"`).
        "metadata": CaptureJsonMetadata,  # Facts read from the captured page.
        "truncated": bool,
    },
)

_PageContentOptional = TypedDict(
    "_PageContentOptional",
    {
        "rendered": Literal["http", "browser"],  # With `render` auto or never: how the page was read — http (its document fetched and read without a browser) or browser.
        "html": str,
        "text": str,
    },
    total=False,
)


class PageContent(_PageContentRequired, _PageContentOptional):
    pass


_ScrapeMatchBoxRequired = TypedDict(
    "_ScrapeMatchBoxRequired",
    {
        "x": float,
        "y": float,
        "width": float,
        "height": float,
    },
)


class ScrapeMatchBox(_ScrapeMatchBoxRequired):
    pass


_ScrapeMatchRequired = TypedDict(
    "_ScrapeMatchRequired",
    {
        "text": str,
        "html": str,
        "attributes": Dict[str, str],
        "box": ScrapeMatchBox,
    },
)


class ScrapeMatch(_ScrapeMatchRequired):
    pass


_ScrapeResultRequired = TypedDict(
    "_ScrapeResultRequired",
    {
        "selector": str,
        "matches": List[ScrapeMatch],
        "truncated": bool,
    },
)


class ScrapeResult(_ScrapeResultRequired):
    pass


_ScrapeRequired = TypedDict(
    "_ScrapeRequired",
    {
        "url": str,
        "capturedAt": str,
        "quality": str,
        "waitStrategy": str,
        "loadTimeMs": float,
        "completeness": Optional[CompletenessOutput],  # How complete the page was when it was read (docs/CAPTURE.md, "Complete captures"): with no shot taken (all but /v1/snapshot), nothing is waited for, `blankRatio` is null and images count over the whole document. Null when no browser loaded the page (`rendered: "http"`).
        "metadata": CaptureJsonMetadata,  # Facts read from the captured page.
        "results": List[ScrapeResult],
    },
)


class Scrape(_ScrapeRequired):
    pass


_ProductValuesRatingRequired = TypedDict(
    "_ProductValuesRatingRequired",
    {
        "value": float,
        "count": Optional[float],
        "best": Optional[float],
    },
)


class ProductValuesRating(_ProductValuesRatingRequired):
    pass


_ProductValuesRequired = TypedDict(
    "_ProductValuesRequired",
    {
        "name": Optional[str],
        "description": Optional[str],
        "url": Optional[str],
        "sku": Optional[str],
        "gtin": Optional[str],
        "brand": Optional[str],
        "price": Optional[float],
        "currency": Optional[str],
        "availability": Optional[str],
        "images": List[str],
        "rating": Optional[ProductValuesRating],
    },
)


class ProductValues(_ProductValuesRequired):
    pass


_MarkupValueRequired = TypedDict(
    "_MarkupValueRequired",
    {
        "kind": Literal["product"],
        "values": ProductValues,
        "sources": Dict[str, Literal["json-ld", "microdata", "rdfa", "next-data", "nuxt-data", "opengraph", "twitter"]],
        "skippedJsonLd": int,
        "truncated": bool,
    },
)


class MarkupValue(_MarkupValueRequired):
    pass


_ArticleValuesRequired = TypedDict(
    "_ArticleValuesRequired",
    {
        "headline": Optional[str],
        "description": Optional[str],
        "url": Optional[str],
        "authors": List[str],
        "datePublished": Optional[str],
        "dateModified": Optional[str],
        "images": List[str],
        "publisher": Optional[str],
    },
)


class ArticleValues(_ArticleValuesRequired):
    pass


_MarkupValue2Required = TypedDict(
    "_MarkupValue2Required",
    {
        "kind": Literal["article"],
        "values": ArticleValues,
        "sources": Dict[str, Literal["json-ld", "microdata", "rdfa", "next-data", "nuxt-data", "opengraph", "twitter"]],
        "skippedJsonLd": int,
        "truncated": bool,
    },
)


class MarkupValue2(_MarkupValue2Required):
    pass


_OrganizationValuesRequired = TypedDict(
    "_OrganizationValuesRequired",
    {
        "name": Optional[str],
        "description": Optional[str],
        "url": Optional[str],
        "logo": Optional[str],
        "sameAs": List[str],
    },
)


class OrganizationValues(_OrganizationValuesRequired):
    pass


_MarkupValue3Required = TypedDict(
    "_MarkupValue3Required",
    {
        "kind": Literal["organization"],
        "values": OrganizationValues,
        "sources": Dict[str, Literal["json-ld", "microdata", "rdfa", "next-data", "nuxt-data", "opengraph", "twitter"]],
        "skippedJsonLd": int,
        "truncated": bool,
    },
)


class MarkupValue3(_MarkupValue3Required):
    pass


_MarkupValue4Required = TypedDict(
    "_MarkupValue4Required",
    {
        "kind": None,
        "values": None,
        "sources": Dict[str, Literal["json-ld", "microdata", "rdfa", "next-data", "nuxt-data", "opengraph", "twitter"]],
        "skippedJsonLd": int,
        "truncated": bool,
    },
)


class MarkupValue4(_MarkupValue4Required):
    pass


Markup = Union[MarkupValue, MarkupValue2, MarkupValue3, MarkupValue4]


_StructuredRequired = TypedDict(
    "_StructuredRequired",
    {
        "url": str,
        "capturedAt": str,
        "quality": str,
        "waitStrategy": str,
        "loadTimeMs": float,
        "completeness": Optional[CompletenessOutput],  # How complete the page was when it was read (docs/CAPTURE.md, "Complete captures"): with no shot taken (all but /v1/snapshot), nothing is waited for, `blankRatio` is null and images count over the whole document. Null when no browser loaded the page (`rendered: "http"`).
        "metadata": CaptureJsonMetadata,  # Facts read from the captured page.
    },
)

_StructuredOptional = TypedDict(
    "_StructuredOptional",
    {
        "fields": Dict[str, Any],
        "truncated": bool,
        "markup": Markup,
    },
    total=False,
)


class Structured(_StructuredRequired, _StructuredOptional):
    pass


_PageLinkRequired = TypedDict(
    "_PageLinkRequired",
    {
        "url": str,
        "text": str,
        "rel": str,
        "internal": bool,
    },
)


class PageLink(_PageLinkRequired):
    pass


_LinksRequired = TypedDict(
    "_LinksRequired",
    {
        "url": str,
        "capturedAt": str,
        "quality": str,
        "waitStrategy": str,
        "loadTimeMs": float,
        "completeness": Optional[CompletenessOutput],  # How complete the page was when it was read (docs/CAPTURE.md, "Complete captures"): with no shot taken (all but /v1/snapshot), nothing is waited for, `blankRatio` is null and images count over the whole document. Null when no browser loaded the page (`rendered: "http"`).
        "metadata": CaptureJsonMetadata,  # Facts read from the captured page.
        "links": List[PageLink],
        "truncated": bool,
    },
)

_LinksOptional = TypedDict(
    "_LinksOptional",
    {
        "rendered": Literal["http", "browser"],  # With `render` auto or never: how the page was read — http (its document fetched and read without a browser) or browser.
    },
    total=False,
)


class Links(_LinksRequired, _LinksOptional):
    pass


_SnapshotRequired = TypedDict(
    "_SnapshotRequired",
    {
        "url": str,
        "capturedAt": str,
        "quality": str,
        "waitStrategy": str,
        "loadTimeMs": float,
        "completeness": Optional[CompletenessOutput],  # How complete the page was when it was read (docs/CAPTURE.md, "Complete captures"): with no shot taken (all but /v1/snapshot), nothing is waited for, `blankRatio` is null and images count over the whole document. Null when no browser loaded the page (`rendered: "http"`).
        "metadata": CaptureJsonMetadata,  # Facts read from the captured page.
        "html": str,
        "truncated": bool,
        "screenshot": str,
        "contentType": str,
        "format": Literal["png", "jpeg", "webp", "pdf"],
        "width": int,
        "height": int,
    },
)


class Snapshot(_SnapshotRequired):
    pass


_CreditUsageRequired = TypedDict(
    "_CreditUsageRequired",
    {
        "used": int,
        "limit": Optional[int],
        "remaining": Optional[int],
        "unlimited": bool,
        "resetsAt": str,
    },
)


class CreditUsage(_CreditUsageRequired):
    pass


_UpgradeRequired = TypedDict(
    "_UpgradeRequired",
    {
        "recommendedPlan": Literal["free", "basic", "starter", "pro", "enterprise"],
        "recommendedPlanCredits": Optional[int],
        "upgradeUrl": str,
        "manageBillingUrl": str,
    },
)


class Upgrade(_UpgradeRequired):
    pass


_AccountWebhooksRequired = TypedDict(
    "_AccountWebhooksRequired",
    {
        "signingSecret": str,
    },
)


class AccountWebhooks(_AccountWebhooksRequired):
    pass


_AccountRequired = TypedDict(
    "_AccountRequired",
    {
        "plan": Literal["free", "basic", "starter", "pro", "enterprise"],
        "usage": CreditUsage,
        "rateLimitPerMinute": int,
        "readRateLimitPerMinute": int,
        "upgrade": Optional[Upgrade],
        "webhooks": AccountWebhooks,
    },
)


class Account(_AccountRequired):
    pass


_CredentialCheckRequired = TypedDict(
    "_CredentialCheckRequired",
    {
        "valid": Literal[True],
        "accountId": str,
        "plan": Literal["free", "basic", "starter", "pro", "enterprise"],
        "keyId": str,
    },
)


class CredentialCheck(_CredentialCheckRequired):
    pass


_DestinationRequired = TypedDict(
    "_DestinationRequired",
    {
        "destinationId": str,
        "name": str,
        "endpoint": str,
        "region": str,
        "bucket": str,
        "pathStyle": bool,
        "prefix": Optional[str],
        "acl": Optional[Literal["private", "public-read"]],
        "storageClass": Optional[str],
        "deliverOnly": bool,
        "accessKeyId": str,
        "createdAt": str,
    },
)


class Destination(_DestinationRequired):
    pass


_CrawlDryRunRequired = TypedDict(
    "_CrawlDryRunRequired",
    {
        "dryRun": Literal[True],
        "urls": List[str],  # The URLs known before rendering (the start URL, the sitemaps', the start page's links), up to the limit.
        "truncated": bool,  # More URLs were found than the limit.
        "credits": int,  # What rendering `urls` would cost.
        "maxCredits": int,  # The most the crawl can cost: `limit` pages (links found deeper count too).
    },
)


class CrawlDryRun(_CrawlDryRunRequired):
    pass


_CrawlStartedRequired = TypedDict(
    "_CrawlStartedRequired",
    {
        "crawlId": str,
        "status": Literal["queued"],
        "statusUrl": str,
    },
)


class CrawlStarted(_CrawlStartedRequired):
    pass


_CrawlCountsRequired = TypedDict(
    "_CrawlCountsRequired",
    {
        "rendered": int,
        "skipped": int,
        "failed": int,
        "queued": int,
        "cached": int,  # Of the skipped pages: reused from an earlier crawl of the account (maxAge).
        "notModified": int,  # Of the skipped pages: unchanged since modifiedSince (sitemap lastmod, Last-Modified) or answered 304 to a conditional request.
    },
)


class CrawlCounts(_CrawlCountsRequired):
    pass


_CrawlPageLinksItemRequired = TypedDict(
    "_CrawlPageLinksItemRequired",
    {
        "url": str,
        "text": str,
    },
)


class CrawlPageLinksItem(_CrawlPageLinksItemRequired):
    pass


_CrawlPageMetadataOpenGraphRequired = TypedDict(
    "_CrawlPageMetadataOpenGraphRequired",
    {
        "title": str,
        "description": str,
        "image": str,
        "siteName": str,
    },
)


class CrawlPageMetadataOpenGraph(_CrawlPageMetadataOpenGraphRequired):
    pass


_CrawlPageMetadataRequired = TypedDict(
    "_CrawlPageMetadataRequired",
    {
        "title": str,
        "statusCode": Optional[int],
        "openGraph": CrawlPageMetadataOpenGraph,
    },
)


class CrawlPageMetadata(_CrawlPageMetadataRequired):
    pass


_CrawlPageJsonOptional = TypedDict(
    "_CrawlPageJsonOptional",
    {
        "fields": Dict[str, Any],  # `fields`: each field's value, typed, as POST /v1/json answers them.
        "truncated": bool,
        "markup": Markup,
    },
    total=False,
)


class CrawlPageJson(_CrawlPageJsonOptional):
    "The json format: the page's fields and/or markup."


_CrawlPageRequired = TypedDict(
    "_CrawlPageRequired",
    {
        "url": str,
        "depth": int,
        "status": Literal["rendered", "skipped", "failed"],
    },
)

_CrawlPageOptional = TypedDict(
    "_CrawlPageOptional",
    {
        "reason": Literal["robots", "pattern", "pattern_budget", "scope", "depth", "blocked", "not_html", "http_error", "timeout", "unreachable", "credits", "cancelled", "capture_failed", "cached", "not_modified"],
        "foundOn": str,  # The page whose links had this URL first. None for the start URL and URLs from sitemaps.
        "rendered": Literal["http", "browser"],  # How a rendered page was loaded: http (fetched and converted without a browser) or browser. With render: auto, decided page by page.
        "cachedAt": str,  # A page reused rather than loaded again (reason cached, or not_modified after a conditional request): when the result it carries was loaded (ISO 8601).
        "statusCode": int,
        "finalUrl": str,
        "completeness": CompletenessOutput,  # Pages rendered in the browser: how complete the page was (its screenshot's report with the screenshot format, else as its content was read: `blankRatio` null). None for pages rendered over http.
        "markdown": str,
        "html": str,
        "text": str,
        "links": List[CrawlPageLinksItem],
        "metadata": CrawlPageMetadata,
        "screenshotUrl": str,
        "json": CrawlPageJson,  # The json format: the page's fields and/or markup.
        "contentUrl": str,  # Set instead of markdown/html/text/json when they total more than 256 KB: a signed URL of the page's JSON.
    },
    total=False,
)


class CrawlPage(_CrawlPageRequired, _CrawlPageOptional):
    pass


_CrawlRequired = TypedDict(
    "_CrawlRequired",
    {
        "crawlId": str,
        "url": str,
        "status": Literal["queued", "running", "completed", "cancelled", "failed"],
        "counts": CrawlCounts,
        "limit": int,
        "creditsUsed": int,
        "createdAt": str,
        "pages": List[CrawlPage],
        "nextCursor": Optional[str],
    },
)

_CrawlOptional = TypedDict(
    "_CrawlOptional",
    {
        "stoppedBy": Literal["limit", "credits", "cancelled"],
        "completedAt": str,
    },
    total=False,
)


class Crawl(_CrawlRequired, _CrawlOptional):
    pass


_CrawlSummaryRequired = TypedDict(
    "_CrawlSummaryRequired",
    {
        "crawlId": str,
        "url": str,
        "status": Literal["queued", "running", "completed", "cancelled", "failed"],
        "counts": CrawlCounts,
        "limit": int,
        "creditsUsed": int,
        "createdAt": str,
    },
)

_CrawlSummaryOptional = TypedDict(
    "_CrawlSummaryOptional",
    {
        "stoppedBy": Literal["limit", "credits", "cancelled"],
        "completedAt": str,
    },
    total=False,
)


class CrawlSummary(_CrawlSummaryRequired, _CrawlSummaryOptional):
    pass


_MapResultUrlsItemRequired = TypedDict(
    "_MapResultUrlsItemRequired",
    {
        "url": str,
        "source": Literal["sitemap", "links"],
    },
)


class MapResultUrlsItem(_MapResultUrlsItemRequired):
    pass


_MapResultRequired = TypedDict(
    "_MapResultRequired",
    {
        "urls": List[MapResultUrlsItem],
        "truncated": bool,
    },
)


class MapResult(_MapResultRequired):
    pass


_MonitorDryRunRequired = TypedDict(
    "_MonitorDryRunRequired",
    {
        "dryRun": Literal[True],
        "urls": List[str],  # The URLs a check would cover now.
        "truncated": bool,  # The site has more URLs than the limit.
        "creditsPerCheck": int,
        "checksPerMonth": float,
        "creditsPerMonth": int,
    },
)


class MonitorDryRun(_MonitorDryRunRequired):
    pass


_MonitorCheckOutputCountsRequired = TypedDict(
    "_MonitorCheckOutputCountsRequired",
    {
        "new": int,
        "removed": int,
        "changed": int,
        "unchanged": int,
        "failed": int,
    },
)


class MonitorCheckOutputCounts(_MonitorCheckOutputCountsRequired):
    pass


_MonitorCheckOutputRequired = TypedDict(
    "_MonitorCheckOutputRequired",
    {
        "checkId": str,
        "monitorId": str,
        "trigger": Literal["created", "schedule", "manual"],
        "status": Literal["queued", "running", "completed", "cancelled", "failed"],
        "counts": MonitorCheckOutputCounts,
        "identical": int,  # Of the unchanged pages, those whose capture was byte-identical to the baseline: no pixel or text diff was needed.
        "creditsUsed": int,
        "baseline": bool,
        "createdAt": str,  # ISO 8601
    },
)

_MonitorCheckOutputOptional = TypedDict(
    "_MonitorCheckOutputOptional",
    {
        "stoppedBy": Literal["limit", "credits", "cancelled"],
        "completedAt": str,  # ISO 8601
    },
    total=False,
)


class MonitorCheckOutput(_MonitorCheckOutputRequired, _MonitorCheckOutputOptional):
    pass


_MonitorSettingsAlertsItemRequired = TypedDict(
    "_MonitorSettingsAlertsItemRequired",
    {
        "field": str,  # A field of `fields` (top level) whose value the rule reads.
        "rule": Literal["changed", "increased", "decreased", "above", "below", "becomes", "stopsBeing"],  # changed: the value differs from the last good run's; increased / decreased: by at least `byPercent` (numbers); above / below: crosses `value` (numbers); becomes / stopsBeing: turns into, or stops being, `value` (back in stock).
        "onFirstRun": bool,  # Fire on the first run with these fields when the condition already holds (above, below, becomes, stopsBeing).
    },
)

_MonitorSettingsAlertsItemOptional = TypedDict(
    "_MonitorSettingsAlertsItemOptional",
    {
        "byPercent": float,  # increased / decreased: the least change, in percent of the last value (default 0).
        "value": Union[float, str, bool],  # above / below: a number; becomes / stopsBeing: the value compared with.
    },
    total=False,
)


class MonitorSettingsAlertsItem(_MonitorSettingsAlertsItemRequired, _MonitorSettingsAlertsItemOptional):
    "An alert rule on a field."


_MonitorSettingsRequired = TypedDict(
    "_MonitorSettingsRequired",
    {
        "url": str,  # The start URL: a public http(s) URL.
    },
)

_MonitorSettingsOptional = TypedDict(
    "_MonitorSettingsOptional",
    {
        "scope": Literal["path", "host", "domain"],  # path: under the start URL's path; host: the start URL's host; domain: its registrable domain, subdomains included.
        "include": List[str],  # URL path globs a page must match (`*` within a segment, `**` across segments). At most 20.
        "exclude": List[str],  # URL path globs a page must not match (`*` within a segment, `**` across segments). At most 20.
        "sitemap": Literal["include", "skip", "only"],  # include: seed from robots.txt Sitemap: lines and /sitemap.xml (indexes and .xml.gz too) and follow links; skip: links only; only: sitemap URLs only.
        "name": str,  # A label of your choice.
        "schedule": MonitorSchedule,
        "limit": int,  # Pages a check covers at most (each plan caps it: Free 10, Basic 50, Starter 100, Pro 1,000, Enterprise 10,000).
        "maxDepth": int,  # Links followed from the start page (sitemap URLs enter at depth 1).
        "followNofollow": bool,  # Follow links marked rel="nofollow".
        "compare": List[Literal["visual", "text", "fields"]],  # What counts as a change: visual (pixels outside masks), text (words of the visible text), fields (title, description, canonical, status code and `fields`).
        "fields": List[MonitorField],  # Named selectors whose first match's text (or attribute) is compared.
        "alerts": List[MonitorSettingsAlertsItem],  # Rules on a page's fields (a name of `fields`, or title, description, canonical, statusCode), as a watch's alerts: a page where one fires is changed, and its report says which rule fired with the old and new values. Number rules read text as a number in any locale.
        "ignore": List[str],  # Selectors hidden before every capture: never a change, in pixels or text.
        "ignoreRegions": List[MonitorRegion],  # Boxes of the viewport whose pixels are never compared.
        "learnVolatile": bool,  # Capture each page twice when first seen and mask what differs between the two (clocks, rotating banners, ads).
        "minChangedPixels": int,  # Fewer changed pixels (outside masks) than this are no visual change.
        "minChangedWords": int,  # Fewer changed words than this are no text change.
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],  # When navigation counts as complete.
        "delay": int,  # Milliseconds to wait after the page loaded.
        "timeout": int,  # Navigation timeout in seconds.
        "width": int,  # Viewport width in CSS pixels.
        "height": int,  # Viewport height in CSS pixels.
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],  # Preset for viewport, scale factor and user agent; explicit width, height and userAgent override it.
        "blockAds": bool,  # Block ads and trackers.
        "blockCookieBanners": bool,  # Hide common consent walls (a curated CSS list).
        "headers": Dict[str, str],  # Extra request headers (not on the Free plan): at most 50, values at most 4,096 printable Latin-1 characters; Host, Connection, Content-Length, Transfer-Encoding, hop-by-hop and Proxy-* headers cannot be set.
        "cookies": List[CaptureRequestCookiesItem],  # Cookies set before navigation (not on the Free plan), at most 50.
        "webhookUrl": str,  # Signed events of this monitor are POSTed here.
        "webhookEvents": List[Literal["monitor.check.completed", "monitor.page.changed", "monitor.page.new", "monitor.page.removed", "monitor.page.failed"]],  # Events sent to webhookUrl.
    },
    total=False,
)


class MonitorSettings(_MonitorSettingsRequired, _MonitorSettingsOptional):
    "Every setting, defaults filled in."


_MonitorRequired = TypedDict(
    "_MonitorRequired",
    {
        "monitorId": str,
        "name": Optional[str],
        "url": str,
        "status": Literal["active", "paused"],
        "schedule": MonitorSchedule,
        "nextCheckAt": Optional[str],  # The next scheduled check; null while paused.
        "lastCheck": Optional[MonitorCheckOutput],
        "feedUrl": str,  # A signed Atom feed of this monitor's changes.
        "settings": MonitorSettings,
        "createdAt": str,  # ISO 8601
        "updatedAt": str,  # ISO 8601
    },
)


class Monitor(_MonitorRequired):
    pass


_WebhookDeliverySubjectRequired = TypedDict(
    "_WebhookDeliverySubjectRequired",
    {
        "kind": Literal["job", "batch", "run", "crawl", "monitor"],
        "id": str,
    },
)


class WebhookDeliverySubject(_WebhookDeliverySubjectRequired):
    "The job, batch or watch run it reports on."


_WebhookDeliveryRequired = TypedDict(
    "_WebhookDeliveryRequired",
    {
        "deliveryId": str,  # Unique per delivery; the x-service-delivery-id header.
        "event": str,  # job.completed, job.failed, batch.completed, watch.changed, …
        "url": str,  # Where it is sent.
        "subject": WebhookDeliverySubject,  # The job, batch or watch run it reports on.
        "state": Literal["pending", "queued", "delivered", "failed"],  # pending or queued: on its way (or retrying); delivered and failed are final.
        "attempts": int,
        "lastStatus": Optional[int],  # HTTP status of the last attempt.
        "lastError": Optional[str],  # Why the last attempt failed.
        "lastAttemptAt": Optional[str],
        "nextAttemptAt": Optional[str],  # When the next retry is due, while retrying.
        "createdAt": str,
    },
)


class WebhookDelivery(_WebhookDeliveryRequired):
    pass


_WebhookTestResultRequired = TypedDict(
    "_WebhookTestResultRequired",
    {
        "delivered": bool,  # The receiver answered 2xx.
        "status": Optional[int],  # The receiver's HTTP status; null if none.
    },
)

_WebhookTestResultOptional = TypedDict(
    "_WebhookTestResultOptional",
    {
        "error": str,  # Why it was not delivered.
    },
    total=False,
)


class WebhookTestResult(_WebhookTestResultRequired, _WebhookTestResultOptional):
    pass


_RequestLogEntryRequired = TypedDict(
    "_RequestLogEntryRequired",
    {
        "at": str,  # When the request arrived.
        "method": str,
        "route": str,  # The route's pattern (`/v1/jobs/:jobId`), never the path's values or the query.
        "status": int,  # The HTTP status answered.
        "errorCode": Optional[str],  # The error code of an error answer.
        "credits": Optional[int],  # Credits charged; null when none was spent.
        "durationMs": int,
        "requestId": str,
        "keyName": Optional[str],  # The name of the key used, when it has one.
        "keyPrefix": Optional[str],  # The first characters of the key used.
    },
)


class RequestLogEntry(_RequestLogEntryRequired):
    pass


_RequestLogRequired = TypedDict(
    "_RequestLogRequired",
    {
        "items": List[RequestLogEntry],
    },
)


class RequestLog(_RequestLogRequired):
    pass


_UsageOutputRequired = TypedDict(
    "_UsageOutputRequired",
    {
        "credits": int,
        "remaining": Optional[int],
    },
)


class UsageOutput(_UsageOutputRequired):
    pass


_MetaOutputRequired = TypedDict(
    "_MetaOutputRequired",
    {
        "requestId": str,
        "timestamp": str,
    },
)

_MetaOutputOptional = TypedDict(
    "_MetaOutputOptional",
    {
        "usage": UsageOutput,
    },
    total=False,
)


class MetaOutput(_MetaOutputRequired, _MetaOutputOptional):
    pass


_MonitorCheckPageOutputVisualRequired = TypedDict(
    "_MonitorCheckPageOutputVisualRequired",
    {
        "changedPixels": int,
        "changedPercent": float,
        "regions": List[ScrapeMatchBox],  # Bounding boxes of the changed areas, CSS px.
        "beforeUrl": str,
        "afterUrl": str,
        "diffUrl": str,
    },
)


class MonitorCheckPageOutputVisual(_MonitorCheckPageOutputVisualRequired):
    pass


_MonitorCheckPageOutputTextPartsItemRequired = TypedDict(
    "_MonitorCheckPageOutputTextPartsItemRequired",
    {
        "op": Literal["added", "removed"],
        "text": str,
    },
)


class MonitorCheckPageOutputTextPartsItem(_MonitorCheckPageOutputTextPartsItemRequired):
    pass


_MonitorCheckPageOutputTextRequired = TypedDict(
    "_MonitorCheckPageOutputTextRequired",
    {
        "added": int,  # Words added.
        "removed": int,  # Words removed.
        "parts": List[MonitorCheckPageOutputTextPartsItem],
        "truncated": bool,
    },
)


class MonitorCheckPageOutputText(_MonitorCheckPageOutputTextRequired):
    pass


_MonitorCheckPageOutputFieldsItemRequired = TypedDict(
    "_MonitorCheckPageOutputFieldsItemRequired",
    {
        "name": str,
        "before": Optional[str],
        "after": Optional[str],
    },
)


class MonitorCheckPageOutputFieldsItem(_MonitorCheckPageOutputFieldsItemRequired):
    pass


_MonitorCheckPageOutputAlertsItemRequired = TypedDict(
    "_MonitorCheckPageOutputAlertsItemRequired",
    {
        "field": str,
        "rule": Literal["changed", "increased", "decreased", "above", "below", "becomes", "stopsBeing"],
        "previous": Optional[Union[str, float, bool]],  # The value at the last good run (null on the first run).
        "current": Optional[Union[str, float, bool]],  # The value now.
    },
)

_MonitorCheckPageOutputAlertsItemOptional = TypedDict(
    "_MonitorCheckPageOutputAlertsItemOptional",
    {
        "byPercent": float,
        "value": Union[float, str, bool],
    },
    total=False,
)


class MonitorCheckPageOutputAlertsItem(_MonitorCheckPageOutputAlertsItemRequired, _MonitorCheckPageOutputAlertsItemOptional):
    "An alert rule that fired."


_MonitorCheckPageOutputMaskedRequired = TypedDict(
    "_MonitorCheckPageOutputMaskedRequired",
    {
        "regions": List[ScrapeMatchBox],  # Volatile and ignored boxes left out of the pixel diff.
        "lines": int,  # Volatile lines left out of the text diff.
    },
)


class MonitorCheckPageOutputMasked(_MonitorCheckPageOutputMaskedRequired):
    pass


_MonitorCheckPageOutputRequired = TypedDict(
    "_MonitorCheckPageOutputRequired",
    {
        "url": str,
        "status": Literal["new", "removed", "changed", "unchanged", "failed"],
    },
)

_MonitorCheckPageOutputOptional = TypedDict(
    "_MonitorCheckPageOutputOptional",
    {
        "reason": str,  # Why a page failed (as a crawl page's).
        "statusCode": int,
        "screenshotUrl": str,  # A new page's capture (signed).
        "completeness": CompletenessOutput,  # New and changed pages: how complete this check's capture of the page was.
        "visual": MonitorCheckPageOutputVisual,
        "text": MonitorCheckPageOutputText,
        "fields": List[MonitorCheckPageOutputFieldsItem],
        "alerts": List[MonitorCheckPageOutputAlertsItem],  # The monitor's alert rules that fired on this page.
        "masked": MonitorCheckPageOutputMasked,
    },
    total=False,
)


class MonitorCheckPageOutput(_MonitorCheckPageOutputRequired, _MonitorCheckPageOutputOptional):
    pass


_ErrorDetailOutputRequired = TypedDict(
    "_ErrorDetailOutputRequired",
    {
        "path": str,
        "message": str,
    },
)


class ErrorDetailOutput(_ErrorDetailOutputRequired):
    pass


_ErrorEnvelopeErrorRequired = TypedDict(
    "_ErrorEnvelopeErrorRequired",
    {
        "code": str,  # Machine-readable error code.
        "message": str,  # Human-readable reason; names the field at fault.
        "docs": str,  # Where the code is explained: `/docs/errors#<CODE>` (what it means, what to do).
    },
)

_ErrorEnvelopeErrorOptional = TypedDict(
    "_ErrorEnvelopeErrorOptional",
    {
        "details": List[ErrorDetailOutput],  # Per-field problems.
    },
    total=False,
)


class ErrorEnvelopeError(_ErrorEnvelopeErrorRequired, _ErrorEnvelopeErrorOptional):
    pass


_ErrorEnvelopeRequired = TypedDict(
    "_ErrorEnvelopeRequired",
    {
        "success": Literal[False],
        "error": ErrorEnvelopeError,
        "meta": MetaOutput,
    },
)


class ErrorEnvelope(_ErrorEnvelopeRequired):
    pass


_CaptureScreenshotGetQueryOptional = TypedDict(
    "_CaptureScreenshotGetQueryOptional",
    {
        "url": str,
        "format": Literal["png", "jpeg", "webp", "pdf"],
        "waitUntil": Literal["load", "domcontentloaded", "networkidle0", "networkidle2"],
        "waitForSelector": str,
        "selector": str,
        "device": Literal["desktop", "iphone_15", "iphone_se", "pixel_8", "ipad", "ipad_pro"],
        "userAgent": str,
        "pdfFormat": Literal["A4", "Letter", "Legal", "Tabloid", "A3"],
        "geo": Literal["AF", "AL", "DZ", "AR", "AU", "AT", "BD", "BE", "BR", "BG", "CA", "CL", "CN", "CO", "HR", "CZ", "DK", "EG", "EE", "FI", "FR", "DE", "GR", "HK", "HU", "IN", "ID", "IE", "IL", "IT", "JP", "KE", "KR", "LV", "LT", "MY", "MX", "NL", "NZ", "NG", "NO", "PK", "PE", "PH", "PL", "PT", "RO", "RU", "SA", "SG", "SK", "ZA", "ES", "SE", "CH", "TW", "TH", "TR", "UA", "AE", "GB", "US", "VN"],
        "geoCity": str,
        "geoState": str,
        "timezone": str,
        "locale": str,
        "mediaType": Literal["screen", "print"],
        "pdfPageRanges": str,
        "width": str,
        "height": str,
        "quality": str,
        "delay": str,
        "deviceScaleFactor": str,
        "timeout": str,
        "resizeWidth": str,
        "resizeHeight": str,
        "pdfScale": str,
        "fullPage": str,
        "darkMode": str,
        "blockAds": str,
        "bestAttempt": str,
        "blockCookieBanners": str,
        "pdfLandscape": str,
        "pdfPrintBackground": str,
        "omitBackground": str,
        "reducedMotion": str,
        "liveMotion": str,
        "requireComplete": str,
        "pdfOutline": str,
        "pdfTagged": str,
    },
    total=False,
)


class CaptureScreenshotGetQuery(_CaptureScreenshotGetQueryOptional):
    "Query parameters of GET /v1/screenshot."


_ListJobsQueryOptional = TypedDict(
    "_ListJobsQueryOptional",
    {
        "status": Literal["queued", "processing", "completed", "failed"],
        "limit": str,
        "cursor": str,
    },
    total=False,
)


class ListJobsQuery(_ListJobsQueryOptional):
    "Query parameters of GET /v1/jobs."


_ListJobsResultRequired = TypedDict(
    "_ListJobsResultRequired",
    {
        "items": List[Job],
        "nextCursor": Optional[str],
    },
)


class ListJobsResult(_ListJobsResultRequired):
    "A page of jobs."


_ListBatchesQueryOptional = TypedDict(
    "_ListBatchesQueryOptional",
    {
        "status": Literal["queued", "processing", "completed"],
        "limit": str,
        "cursor": str,
    },
    total=False,
)


class ListBatchesQuery(_ListBatchesQueryOptional):
    "Query parameters of GET /v1/batches."


_ListBatchesResultRequired = TypedDict(
    "_ListBatchesResultRequired",
    {
        "items": List[Batch],
        "nextCursor": Optional[str],
    },
)


class ListBatchesResult(_ListBatchesResultRequired):
    "A page of batches."


_RenderQueryRequired = TypedDict(
    "_RenderQueryRequired",
    {
        "p": str,  # Signed parameters token.
        "uid": str,  # Owning account id.
        "exp": str,  # Unix seconds the link expires at.
        "sig": str,  # HMAC signature over the parameters.
    },
)


class RenderQuery(_RenderQueryRequired):
    "Query parameters of GET /v1/render."


_GetImageQueryRequired = TypedDict(
    "_GetImageQueryRequired",
    {
        "expires": str,  # Unix seconds the URL expires at.
        "sig": str,  # HMAC signature over the key and expires.
    },
)


class GetImageQuery(_GetImageQueryRequired):
    "Query parameters of GET /v1/images/{key}."


_HeadImageQueryRequired = TypedDict(
    "_HeadImageQueryRequired",
    {
        "expires": str,  # Unix seconds the URL expires at.
        "sig": str,  # HMAC signature over the key and expires.
    },
)


class HeadImageQuery(_HeadImageQueryRequired):
    "Query parameters of HEAD /v1/images/{key}."


_ListDestinationsResultRequired = TypedDict(
    "_ListDestinationsResultRequired",
    {
        "items": List[Destination],
    },
)


class ListDestinationsResult(_ListDestinationsResultRequired):
    "Every destination of the account."


_DeleteDestinationResultRequired = TypedDict(
    "_DeleteDestinationResultRequired",
    {
        "destinationId": str,
        "deleted": Literal[True],
    },
)


class DeleteDestinationResult(_DeleteDestinationResultRequired):
    "Deleted."


_TestDestinationResultRequired = TypedDict(
    "_TestDestinationResultRequired",
    {
        "destinationId": str,
        "ok": Literal[True],
    },
)


class TestDestinationResult(_TestDestinationResultRequired):
    "The bucket accepted the probe."


_CreateWatchRequestChangeDetectionOptional = TypedDict(
    "_CreateWatchRequestChangeDetectionOptional",
    {
        "mode": Literal["visual", "text", "both"],  # visual: share of pixels that differ; text: share of visible-text lines changed; both.
        "thresholdPercent": float,  # A run is `changed` when the changed share is over this percentage.
        "ignoreSelectors": List[str],  # Elements hidden (display:none) before every capture, so they never count as a change.
        "fields": StructuredFields,  # Fields read from the page at every run, as POST /v1/json reads them (selector, type, lists, objects); each run shows them, and `alerts` compare them.
        "alerts": List[MonitorRequestAlertsItem],  # Rules on `fields`, compared with the last good run; a run where any fires sends watch.alert.
    },
    total=False,
)


class CreateWatchRequestChangeDetection(_CreateWatchRequestChangeDetectionOptional):
    "How a run is compared with the last good one."


_CreateWatchRequestRetentionOptional = TypedDict(
    "_CreateWatchRequestRetentionOptional",
    {
        "runs": int,  # Runs kept (with their images); older ones are deleted.
        "days": int,  # Runs older than this many days are deleted with their images.
    },
    total=False,
)


class CreateWatchRequestRetention(_CreateWatchRequestRetentionOptional):
    "History limits; the run holding the current baseline is always kept."


_CreateWatchRequestRequired = TypedDict(
    "_CreateWatchRequestRequired",
    {
        "url": str,  # The public URL to watch.
        "intervalMinutes": int,  # Minutes between scheduled runs: at least the plan's floor (Free 1440, Basic 180, Starter 60, Pro 30, Enterprise 5), at most 43200.
    },
)

_CreateWatchRequestOptional = TypedDict(
    "_CreateWatchRequestOptional",
    {
        "name": str,  # A label of your choice.
        "capture": Dict[str, Any],  # Capture settings of every run: those batch `defaults` accept (viewport, fullPage, waits, css/js, …). Output is always PNG.
        "changeDetection": CreateWatchRequestChangeDetection,  # How a run is compared with the last good one.
        "webhookUrl": str,  # Public HTTPS URL receiving signed watch.changed and watch.failed events.
        "retention": CreateWatchRequestRetention,  # History limits; the run holding the current baseline is always kept.
        "paused": bool,  # Create the watch paused.
        "storage": StorageOption,  # Also deliver every run's image to this storage destination ({watchId} in the key).
    },
    total=False,
)


class CreateWatchRequest(_CreateWatchRequestRequired, _CreateWatchRequestOptional):
    "POST /v1/watches body."


_CreateWatchResultChangeDetectionRequired = TypedDict(
    "_CreateWatchResultChangeDetectionRequired",
    {
        "mode": Literal["visual", "text", "both"],
        "thresholdPercent": float,
        "ignoreSelectors": List[str],
        "alerts": List[MonitorSettingsAlertsItem],
    },
)

_CreateWatchResultChangeDetectionOptional = TypedDict(
    "_CreateWatchResultChangeDetectionOptional",
    {
        "fields": Dict[str, Any],  # The fields read at every run, as given.
    },
    total=False,
)


class CreateWatchResultChangeDetection(_CreateWatchResultChangeDetectionRequired, _CreateWatchResultChangeDetectionOptional):
    pass


_CreateWatchResultRetentionRequired = TypedDict(
    "_CreateWatchResultRetentionRequired",
    {
        "runs": int,
        "days": int,
    },
)


class CreateWatchResultRetention(_CreateWatchResultRetentionRequired):
    pass


_CreateWatchResultStorageRequired = TypedDict(
    "_CreateWatchResultStorageRequired",
    {
        "destinationId": str,
    },
)

_CreateWatchResultStorageOptional = TypedDict(
    "_CreateWatchResultStorageOptional",
    {
        "key": str,
    },
    total=False,
)


class CreateWatchResultStorage(_CreateWatchResultStorageRequired, _CreateWatchResultStorageOptional):
    pass


_CreateWatchResultRequired = TypedDict(
    "_CreateWatchResultRequired",
    {
        "id": str,
        "name": Optional[str],
        "url": str,
        "status": Literal["active", "paused"],
        "paused": bool,
        "pausedReason": Optional[str],  # Why the service paused it (failures, a plan downgrade); null otherwise.
        "intervalMinutes": int,
        "nextRunAt": Optional[str],  # Next scheduled run; null while paused.
        "lastRunAt": Optional[str],
        "lastChangeAt": Optional[str],
        "consecutiveFailures": int,
        "capture": Dict[str, Any],  # The capture settings as given.
        "changeDetection": CreateWatchResultChangeDetection,
        "webhookUrl": Optional[str],
        "retention": CreateWatchResultRetention,
        "storage": Optional[CreateWatchResultStorage],
        "createdAt": str,  # ISO 8601
    },
)


class CreateWatchResult(_CreateWatchResultRequired):
    "The watch."


_ListWatchesQueryOptional = TypedDict(
    "_ListWatchesQueryOptional",
    {
        "status": Literal["active", "paused"],
        "limit": str,
        "cursor": str,
    },
    total=False,
)


class ListWatchesQuery(_ListWatchesQueryOptional):
    "Query parameters of GET /v1/watches."


_ListWatchesResultRequired = TypedDict(
    "_ListWatchesResultRequired",
    {
        "items": List[CreateWatchResult],
        "nextCursor": Optional[str],
    },
)


class ListWatchesResult(_ListWatchesResultRequired):
    "A page of watches."


GetWatchResult = CreateWatchResult


_UpdateWatchRequestOptional = TypedDict(
    "_UpdateWatchRequestOptional",
    {
        "paused": bool,
        "intervalMinutes": int,  # Minutes between scheduled runs: at least the plan's floor (Free 1440, Basic 180, Starter 60, Pro 30, Enterprise 5), at most 43200.
        "name": Optional[str],
        "capture": Dict[str, Any],  # Capture settings of every run: those batch `defaults` accept (viewport, fullPage, waits, css/js, …). Output is always PNG.
        "changeDetection": CreateWatchRequestChangeDetection,  # How a run is compared with the last good one.
        "webhookUrl": Optional[str],
        "retention": CreateWatchRequestRetention,  # History limits; the run holding the current baseline is always kept.
    },
    total=False,
)


class UpdateWatchRequest(_UpdateWatchRequestOptional):
    "PATCH /v1/watches/:watchId body: the fields to change."


UpdateWatchResult = CreateWatchResult


_DeleteWatchResultRequired = TypedDict(
    "_DeleteWatchResultRequired",
    {
        "id": str,
        "deleted": Literal[True],
    },
)


class DeleteWatchResult(_DeleteWatchResultRequired):
    "Deleted."


_RunWatchResultRequired = TypedDict(
    "_RunWatchResultRequired",
    {
        "runId": str,
        "jobId": str,
        "status": Literal["queued"],
    },
)


class RunWatchResult(_RunWatchResultRequired):
    "The run, queued."


_ListWatchRunsQueryOptional = TypedDict(
    "_ListWatchRunsQueryOptional",
    {
        "status": Literal["queued", "processing", "completed", "failed", "skipped"],
        "limit": str,
        "cursor": str,
    },
    total=False,
)


class ListWatchRunsQuery(_ListWatchRunsQueryOptional):
    "Query parameters of GET /v1/watches/{watchId}/runs."


_ListWatchRunsResultItemsItemTextDiffRequired = TypedDict(
    "_ListWatchRunsResultItemsItemTextDiffRequired",
    {
        "added": List[str],
        "removed": List[str],
    },
)


class ListWatchRunsResultItemsItemTextDiff(_ListWatchRunsResultItemsItemTextDiffRequired):
    "Text and both modes: lines added and removed."


_ListWatchRunsResultItemsItemRequired = TypedDict(
    "_ListWatchRunsResultItemsItemRequired",
    {
        "id": str,
        "watchId": str,
        "jobId": Optional[str],  # The async job of the capture; null when skipped.
        "status": Literal["queued", "processing", "completed", "failed", "skipped"],
        "outcome": Optional[Literal["baseline", "unchanged", "changed", "error"]],
        "changedPercent": Optional[float],
        "imageUrl": Optional[str],  # Signed URL of this run's PNG.
        "diffUrl": Optional[str],  # Signed URL of the diff PNG (changed pixels in red).
        "previousImageUrl": Optional[str],  # Signed URL of the baseline compared with.
        "error": Optional[str],  # Why it failed or was skipped.
        "startedAt": Optional[str],
        "completedAt": Optional[str],
        "createdAt": str,  # ISO 8601
        "trigger": Literal["schedule", "manual"],
    },
)

_ListWatchRunsResultItemsItemOptional = TypedDict(
    "_ListWatchRunsResultItemsItemOptional",
    {
        "completeness": CompletenessOutput,  # Completed runs: how complete the run's capture was (docs/CAPTURE.md). None for runs completed before it was recorded.
        "textDiff": ListWatchRunsResultItemsItemTextDiff,  # Text and both modes: lines added and removed.
        "fields": Dict[str, Any],  # The watch's `fields` as this run read them.
        "alerts": List[MonitorCheckPageOutputAlertsItem],  # The alert rules that fired on this run.
        "errorDetail": str,  # The whole cause, as the same request made synchronously names it (the selector that matched nothing, the status that failed the page), when it says more than `error`.
    },
    total=False,
)


class ListWatchRunsResultItemsItem(_ListWatchRunsResultItemsItemRequired, _ListWatchRunsResultItemsItemOptional):
    "One run of a watch."


_ListWatchRunsResultRequired = TypedDict(
    "_ListWatchRunsResultRequired",
    {
        "items": List[ListWatchRunsResultItemsItem],
        "nextCursor": Optional[str],
    },
)


class ListWatchRunsResult(_ListWatchRunsResultRequired):
    "A page of runs."


_GetCrawlPagesQueryOptional = TypedDict(
    "_GetCrawlPagesQueryOptional",
    {
        "status": Literal["rendered", "skipped", "failed"],
        "cursor": str,
        "limit": str,
    },
    total=False,
)


class GetCrawlPagesQuery(_GetCrawlPagesQueryOptional):
    "Query parameters of GET /v1/crawl/{crawlId}/pages."


_GetCrawlPagesResultRequired = TypedDict(
    "_GetCrawlPagesResultRequired",
    {
        "pages": List[CrawlPage],
        "nextCursor": Optional[str],
    },
)


class GetCrawlPagesResult(_GetCrawlPagesResultRequired):
    "A page of results."


_GetCrawlErrorsQueryOptional = TypedDict(
    "_GetCrawlErrorsQueryOptional",
    {
        "cursor": str,
        "limit": str,
    },
    total=False,
)


class GetCrawlErrorsQuery(_GetCrawlErrorsQueryOptional):
    "Query parameters of GET /v1/crawl/{crawlId}/errors."


GetCrawlErrorsResult = GetCrawlPagesResult


_ListCrawlsQueryOptional = TypedDict(
    "_ListCrawlsQueryOptional",
    {
        "status": Literal["queued", "running", "completed", "cancelled", "failed"],
        "limit": str,
        "cursor": str,
    },
    total=False,
)


class ListCrawlsQuery(_ListCrawlsQueryOptional):
    "Query parameters of GET /v1/crawls."


_ListCrawlsResultRequired = TypedDict(
    "_ListCrawlsResultRequired",
    {
        "items": List[CrawlSummary],
        "nextCursor": Optional[str],
    },
)


class ListCrawlsResult(_ListCrawlsResultRequired):
    "A page of crawls."


_ListMonitorsQueryOptional = TypedDict(
    "_ListMonitorsQueryOptional",
    {
        "status": Literal["active", "paused"],
        "limit": str,
        "cursor": str,
    },
    total=False,
)


class ListMonitorsQuery(_ListMonitorsQueryOptional):
    "Query parameters of GET /v1/monitors."


_ListMonitorsResultRequired = TypedDict(
    "_ListMonitorsResultRequired",
    {
        "items": List[Monitor],
        "nextCursor": Optional[str],
    },
)


class ListMonitorsResult(_ListMonitorsResultRequired):
    "A page of monitors."


_DeleteMonitorResultRequired = TypedDict(
    "_DeleteMonitorResultRequired",
    {
        "monitorId": str,
        "deleted": Literal[True],
    },
)


class DeleteMonitorResult(_DeleteMonitorResultRequired):
    "Deleted."


_ListMonitorChecksQueryOptional = TypedDict(
    "_ListMonitorChecksQueryOptional",
    {
        "status": Literal["queued", "running", "completed", "cancelled", "failed"],
        "limit": str,
        "cursor": str,
    },
    total=False,
)


class ListMonitorChecksQuery(_ListMonitorChecksQueryOptional):
    "Query parameters of GET /v1/monitors/{monitorId}/checks."


_ListMonitorChecksResultRequired = TypedDict(
    "_ListMonitorChecksResultRequired",
    {
        "items": List[MonitorCheckOutput],
        "nextCursor": Optional[str],
    },
)


class ListMonitorChecksResult(_ListMonitorChecksResultRequired):
    "A page of checks."


_GetMonitorCheckPagesQueryOptional = TypedDict(
    "_GetMonitorCheckPagesQueryOptional",
    {
        "status": Literal["new", "removed", "changed", "unchanged", "failed"],
        "cursor": str,
        "limit": str,
    },
    total=False,
)


class GetMonitorCheckPagesQuery(_GetMonitorCheckPagesQueryOptional):
    "Query parameters of GET /v1/monitors/{monitorId}/checks/{checkId}/pages."


_GetMonitorCheckPagesResultRequired = TypedDict(
    "_GetMonitorCheckPagesResultRequired",
    {
        "pages": List[MonitorCheckPageOutput],
        "nextCursor": Optional[str],
    },
)


class GetMonitorCheckPagesResult(_GetMonitorCheckPagesResultRequired):
    "A page of the check's pages."


_ListWebhookDeliveriesQueryOptional = TypedDict(
    "_ListWebhookDeliveriesQueryOptional",
    {
        "status": Literal["pending", "queued", "delivered", "failed"],
        "limit": str,
        "cursor": str,
    },
    total=False,
)


class ListWebhookDeliveriesQuery(_ListWebhookDeliveriesQueryOptional):
    "Query parameters of GET /v1/webhooks/deliveries."


_ListWebhookDeliveriesResultRequired = TypedDict(
    "_ListWebhookDeliveriesResultRequired",
    {
        "items": List[WebhookDelivery],
        "nextCursor": Optional[str],
    },
)


class ListWebhookDeliveriesResult(_ListWebhookDeliveriesResultRequired):
    "A page of deliveries."


_ListRequestsQueryOptional = TypedDict(
    "_ListRequestsQueryOptional",
    {
        "status": Literal["2xx", "4xx", "5xx"],
        "limit": str,
    },
    total=False,
)


class ListRequestsQuery(_ListRequestsQueryOptional):
    "Query parameters of GET /v1/requests."


Watch = CreateWatchResult


WatchRun = ListWatchRunsResultItemsItem


_WatchChangedEventRequired = TypedDict(
    "_WatchChangedEventRequired",
    {
        "event": Literal["watch.changed"],
        "watchId": str,
        "runId": str,
        "url": str,
        "changedPercent": float,
        "imageUrl": Optional[str],
        "previousImageUrl": Optional[str],
        "diffUrl": Optional[str],
        "detectedAt": str,  # ISO 8601
    },
)


class WatchChangedEvent(_WatchChangedEventRequired):
    "POSTed to the webhookUrl. Answer 2xx within 10 s; 5xx and timeouts are retried up to 3 times with backoff, 4xx are not."


_WatchAlertEventRequired = TypedDict(
    "_WatchAlertEventRequired",
    {
        "event": Literal["watch.alert"],
        "watchId": str,
        "runId": str,
        "url": str,
        "alerts": List[MonitorCheckPageAlertsItem],
        "fields": Dict[str, Any],  # Every field as this run read it.
        "imageUrl": Optional[str],
        "detectedAt": str,  # ISO 8601
    },
)


class WatchAlertEvent(_WatchAlertEventRequired):
    "POSTed to the webhookUrl. Answer 2xx within 10 s; 5xx and timeouts are retried up to 3 times with backoff, 4xx are not."


_WatchFailedEventRequired = TypedDict(
    "_WatchFailedEventRequired",
    {
        "event": Literal["watch.failed"],
        "watchId": str,
        "runId": str,
        "error": str,
        "consecutiveFailures": int,
        "paused": bool,
    },
)

_WatchFailedEventOptional = TypedDict(
    "_WatchFailedEventOptional",
    {
        "errorDetail": str,  # The whole cause, as the same request made synchronously names it (the selector that matched nothing, the status that failed the page), when it says more than `error`.
    },
    total=False,
)


class WatchFailedEvent(_WatchFailedEventRequired, _WatchFailedEventOptional):
    "POSTed to the webhookUrl. Answer 2xx within 10 s; 5xx and timeouts are retried up to 3 times with backoff, 4xx are not."


# Error codes (`EdgeshotError.code`) the API documents, and the HTTP statuses each comes with.
ErrorCode = Literal[
    "BATCH_LIMIT_EXCEEDED",
    "CAPTURE_FAILED",
    "CHECK_IN_PROGRESS",
    "CHECK_NOT_FOUND",
    "CONFIGURATION_ERROR",
    "CRAWL_LIMIT_REACHED",
    "CRAWL_NOT_FOUND",
    "EXTRACTION_FAILED",
    "FORBIDDEN",
    "GEO_FEATURE_UNAVAILABLE",
    "IDEMPOTENCY_KEY_IN_USE",
    "IDEMPOTENCY_KEY_REUSED",
    "INTERNAL_ERROR",
    "INVALID_API_KEY",
    "INVALID_JSON",
    "INVALID_URL",
    "INVALID_WEBHOOK_URL",
    "KEY_DISABLED",
    "MISSING_API_KEY",
    "MONITOR_LIMIT_REACHED",
    "MONITOR_NOT_FOUND",
    "MONITOR_SCHEDULE_TOO_FAST",
    "NOT_FOUND",
    "PAYLOAD_TOO_LARGE",
    "PLAN_UPGRADE_REQUIRED",
    "QUEUE_LIMIT_REACHED",
    "RATE_LIMITED",
    "SERVICE_BUSY",
    "TIMEOUT",
    "UNSAFE_URL",
    "URL_CHECK_UNAVAILABLE",
    "USAGE_EXCEEDED",
    "VALIDATION_ERROR",
    "WATCH_HOST_LIMIT_REACHED",
    "WATCH_INTERVAL_TOO_FAST",
    "WATCH_LIMIT_REACHED",
    "WATCH_NOT_FOUND",
    "WATCH_PAUSED",
]

BATCH_LIMIT_EXCEEDED: ErrorCode = "BATCH_LIMIT_EXCEEDED"
CAPTURE_FAILED: ErrorCode = "CAPTURE_FAILED"
CHECK_IN_PROGRESS: ErrorCode = "CHECK_IN_PROGRESS"
CHECK_NOT_FOUND: ErrorCode = "CHECK_NOT_FOUND"
CONFIGURATION_ERROR: ErrorCode = "CONFIGURATION_ERROR"
CRAWL_LIMIT_REACHED: ErrorCode = "CRAWL_LIMIT_REACHED"
CRAWL_NOT_FOUND: ErrorCode = "CRAWL_NOT_FOUND"
EXTRACTION_FAILED: ErrorCode = "EXTRACTION_FAILED"
FORBIDDEN: ErrorCode = "FORBIDDEN"
GEO_FEATURE_UNAVAILABLE: ErrorCode = "GEO_FEATURE_UNAVAILABLE"
IDEMPOTENCY_KEY_IN_USE: ErrorCode = "IDEMPOTENCY_KEY_IN_USE"
IDEMPOTENCY_KEY_REUSED: ErrorCode = "IDEMPOTENCY_KEY_REUSED"
INTERNAL_ERROR: ErrorCode = "INTERNAL_ERROR"
INVALID_API_KEY: ErrorCode = "INVALID_API_KEY"
INVALID_JSON: ErrorCode = "INVALID_JSON"
INVALID_URL: ErrorCode = "INVALID_URL"
INVALID_WEBHOOK_URL: ErrorCode = "INVALID_WEBHOOK_URL"
KEY_DISABLED: ErrorCode = "KEY_DISABLED"
MISSING_API_KEY: ErrorCode = "MISSING_API_KEY"
MONITOR_LIMIT_REACHED: ErrorCode = "MONITOR_LIMIT_REACHED"
MONITOR_NOT_FOUND: ErrorCode = "MONITOR_NOT_FOUND"
MONITOR_SCHEDULE_TOO_FAST: ErrorCode = "MONITOR_SCHEDULE_TOO_FAST"
NOT_FOUND: ErrorCode = "NOT_FOUND"
PAYLOAD_TOO_LARGE: ErrorCode = "PAYLOAD_TOO_LARGE"
PLAN_UPGRADE_REQUIRED: ErrorCode = "PLAN_UPGRADE_REQUIRED"
QUEUE_LIMIT_REACHED: ErrorCode = "QUEUE_LIMIT_REACHED"
RATE_LIMITED: ErrorCode = "RATE_LIMITED"
SERVICE_BUSY: ErrorCode = "SERVICE_BUSY"
TIMEOUT: ErrorCode = "TIMEOUT"
UNSAFE_URL: ErrorCode = "UNSAFE_URL"
URL_CHECK_UNAVAILABLE: ErrorCode = "URL_CHECK_UNAVAILABLE"
USAGE_EXCEEDED: ErrorCode = "USAGE_EXCEEDED"
VALIDATION_ERROR: ErrorCode = "VALIDATION_ERROR"
WATCH_HOST_LIMIT_REACHED: ErrorCode = "WATCH_HOST_LIMIT_REACHED"
WATCH_INTERVAL_TOO_FAST: ErrorCode = "WATCH_INTERVAL_TOO_FAST"
WATCH_LIMIT_REACHED: ErrorCode = "WATCH_LIMIT_REACHED"
WATCH_NOT_FOUND: ErrorCode = "WATCH_NOT_FOUND"
WATCH_PAUSED: ErrorCode = "WATCH_PAUSED"

ERROR_STATUSES: Dict[str, Tuple[int, ...]] = {
    BATCH_LIMIT_EXCEEDED: (400,),
    CAPTURE_FAILED: (400, 500, 502,),
    CHECK_IN_PROGRESS: (409,),
    CHECK_NOT_FOUND: (404,),
    CONFIGURATION_ERROR: (503,),
    CRAWL_LIMIT_REACHED: (429,),
    CRAWL_NOT_FOUND: (404,),
    EXTRACTION_FAILED: (422,),
    FORBIDDEN: (403,),
    GEO_FEATURE_UNAVAILABLE: (422,),
    IDEMPOTENCY_KEY_IN_USE: (409,),
    IDEMPOTENCY_KEY_REUSED: (422,),
    INTERNAL_ERROR: (500,),
    INVALID_API_KEY: (401,),
    INVALID_JSON: (400,),
    INVALID_URL: (400,),
    INVALID_WEBHOOK_URL: (400,),
    KEY_DISABLED: (403,),
    MISSING_API_KEY: (401,),
    MONITOR_LIMIT_REACHED: (403,),
    MONITOR_NOT_FOUND: (404,),
    MONITOR_SCHEDULE_TOO_FAST: (403,),
    NOT_FOUND: (404,),
    PAYLOAD_TOO_LARGE: (413,),
    PLAN_UPGRADE_REQUIRED: (403,),
    QUEUE_LIMIT_REACHED: (429,),
    RATE_LIMITED: (429,),
    SERVICE_BUSY: (503,),
    TIMEOUT: (408,),
    UNSAFE_URL: (400,),
    URL_CHECK_UNAVAILABLE: (503,),
    USAGE_EXCEEDED: (429,),
    VALIDATION_ERROR: (400,),
    WATCH_HOST_LIMIT_REACHED: (403,),
    WATCH_INTERVAL_TOO_FAST: (403,),
    WATCH_LIMIT_REACHED: (403,),
    WATCH_NOT_FOUND: (404,),
    WATCH_PAUSED: (409,),
}
