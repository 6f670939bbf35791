"""
The SDK against a running Edgeshot service (`wrangler dev`): skipped unless EDGESHOT_BASE_URL,
EDGESHOT_API_KEY (a Pro account's key) and EDGESHOT_FIXTURE_URL (the test fixture server's
origin; it serves the monitor fixture site too) are set; the webhook test also needs
EDGESHOT_WEBHOOK_PORT, a port the service's TARGET_ALLOWLIST lets webhooks reach
(127.0.0.1:<port>), and the crawl tests EDGESHOT_CRAWL_SITE_URL, the crawl fixture site's
origin. test/api/python-sdk.e2e.test.ts sets them.
"""

import base64
import json
import os
import struct
import sys
import threading
import time
import unittest
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from edgeshot import (  # noqa: E402
    Edgeshot,
    EdgeshotError,
    WebhookVerificationError,
    decode_render_link,
    meta_of,
    verify_webhook,
)
from edgeshot.types import INVALID_API_KEY, MONITOR_NOT_FOUND, VALIDATION_ERROR, MonitorRequest  # noqa: E402

BASE_URL = os.environ.get("EDGESHOT_BASE_URL", "")
API_KEY = os.environ.get("EDGESHOT_API_KEY", "")
FIXTURE_URL = os.environ.get("EDGESHOT_FIXTURE_URL", "")
WEBHOOK_PORT = os.environ.get("EDGESHOT_WEBHOOK_PORT", "")
CRAWL_SITE_URL = os.environ.get("EDGESHOT_CRAWL_SITE_URL", "")
RUN = os.environ.get("EDGESHOT_RUN_ID", str(int(time.time())))
SMALL: Dict[str, Any] = {"width": 400, "height": 300, "deviceScaleFactor": 1, "waitUntil": "load"}

Pixel = Tuple[int, ...]


class Png:
    """A tiny PNG decoder (8-bit RGB/RGBA, non-interlaced): enough to read a pixel."""

    def __init__(self, data: bytes) -> None:
        if data[:8] != b"\x89PNG\r\n\x1a\n":
            raise ValueError("not a PNG")
        pos, idat = 8, b""
        while pos < len(data):
            (length,) = struct.unpack(">I", data[pos : pos + 4])
            kind, chunk = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
            pos += 12 + length
            if kind == b"IHDR":
                self.width, self.height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
                if depth != 8 or color not in (2, 6) or interlace != 0:
                    raise ValueError(f"unsupported PNG: depth {depth}, color type {color}")
                self.channels = 3 if color == 2 else 4
            elif kind == b"IDAT":
                idat += chunk
            elif kind == b"IEND":
                break
        raw = zlib.decompress(idat)
        stride = self.width * self.channels
        rows: List[bytearray] = []
        prev = bytearray(stride)
        for y in range(self.height):
            start = y * (stride + 1)
            kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
            self._unfilter(kind, line, prev)
            rows.append(line)
            prev = line
        self.rows = rows

    def _unfilter(self, kind: int, line: bytearray, prev: bytearray) -> None:
        bpp = self.channels
        for i in range(len(line)):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF

    def pixel(self, x: int, y: int) -> Pixel:
        """(r, g, b) at x, y."""
        i = x * self.channels
        return tuple(self.rows[y][i : i + 3])


class Receiver:
    """A local webhook receiver: records each delivery's headers and raw body, answers 200."""

    def __init__(self, port: int) -> None:
        self.deliveries: List[Tuple[Dict[str, str], bytes]] = []
        self.arrived = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                receiver.deliveries.append(({k.lower(): v for k, v in self.headers.items()}, body))
                receiver.arrived.set()
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def page(name: str, test: str) -> str:
    return f"{FIXTURE_URL}/{name}?run=py-{RUN}-{test}"


@unittest.skipUnless(BASE_URL and API_KEY and FIXTURE_URL, "EDGESHOT_BASE_URL, EDGESHOT_API_KEY, EDGESHOT_FIXTURE_URL unset")
class LiveTest(unittest.TestCase):
    client: Edgeshot

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Edgeshot(API_KEY, BASE_URL)

    def test_screenshot_png_pixels_and_metadata(self) -> None:
        shot = self.client.screenshot(url=page("boxes.html", "png"), **SMALL)
        self.assertEqual(shot.content_type, "image/png")
        png = Png(shot.bytes)
        self.assertEqual((png.width, png.height), (400, 300))
        self.assertEqual(png.pixel(10, 10), (255, 0, 0))  # #red
        self.assertEqual(png.pixel(210, 10), (0, 255, 0))  # #green
        self.assertEqual(png.pixel(10, 210), (0, 0, 255))  # #blue
        self.assertEqual(png.pixel(150, 150), (255, 255, 255))
        meta = shot.metadata
        self.assertEqual((meta.width, meta.height, meta.format, meta.size), (400, 300, "png", len(shot.bytes)))
        self.assertEqual(meta.credits_charged, 1)
        self.assertIn(meta.quality, ("full", "degraded", "best_attempt"))
        self.assertTrue(meta.request_id and meta.request_id.startswith("req_"))

    def test_screenshot_json(self) -> None:
        shot = self.client.screenshot_json({"url": page("boxes.html", "json"), **SMALL, "format": "jpeg"})
        self.assertEqual(shot["format"], "jpeg")
        self.assertEqual(base64.b64decode(shot["image"])[:3], b"\xff\xd8\xff")
        usage = meta_of(shot).get("usage")
        self.assertEqual(usage and usage["credits"], 1)

    def test_extract(self) -> None:
        article = self.client.extract(url=page("extract-article.html", "extract"), waitUntil="load")
        self.assertEqual(article["format"], "markdown")
        self.assertEqual(article["title"], "Reading the Edge")
        self.assertIn("## Why render first", article["content"])
        self.assertGreater(article["length"], 100)

    def test_quick_actions(self) -> None:
        viewport = {"width": 400, "height": 300, "waitUntil": "load"}
        scraped = self.client.scrape(
            url=page("boxes.html", "scrape"), elements=[{"selector": "#target"}], **viewport
        )
        [result] = scraped["results"]
        [match] = result["matches"]
        self.assertEqual(match["text"], "Target")
        self.assertEqual(match["box"], {"x": 300, "y": 150, "width": 123, "height": 45})
        structured = self.client.json(
            url=page("structured-microdata.html", "json"),
            fields={"name": {"selector": "h1"}, "price": {"selector": "[itemprop=price]", "type": "number"}},
            kind="product",
            **viewport,
        )
        self.assertEqual(structured["fields"], {"name": "Desk lamp Lumo", "price": 49.9})
        self.assertEqual(structured["markup"]["values"]["sku"], "LUMO-1")
        self.assertEqual(structured["markup"]["sources"]["price"], "microdata")
        links = self.client.links(url=page("quick-actions.html", "links"), **viewport)
        self.assertIn(f"{FIXTURE_URL}/docs/guide.html", [link["url"] for link in links["links"]])
        content = self.client.content(url=page("boxes.html", "content"), **viewport)
        self.assertIn('<div id="target">Target</div>', content["html"])
        usage = meta_of(content).get("usage")
        self.assertEqual(usage and usage["credits"], 1)

    def test_async_job_waited_for(self) -> None:
        accepted = self.client.screenshot_async(
            url=page("boxes.html", "async"), **SMALL, idempotency_key=f"py-{RUN}-async"
        )
        self.assertEqual(accepted["status"], "queued")
        again = self.client.screenshot_async(
            url=page("boxes.html", "async"), **SMALL, idempotency_key=f"py-{RUN}-async"
        )
        self.assertEqual(again["jobId"], accepted["jobId"], "the idempotency key was not honoured")
        job = self.client.jobs.wait(accepted["jobId"], interval=0.5, timeout=90)
        self.assertEqual(job["status"], "completed", job.get("error"))
        result = self.client.fetch_signed(job["resultUrl"])
        self.assertEqual(Png(result.bytes).pixel(10, 10), (255, 0, 0))
        self.assertIn(accepted["jobId"], [j["jobId"] for j in self.client.jobs.list(limit=20)["items"]])

    def test_render_link(self) -> None:
        link = self.client.render_link(url=page("boxes.html", "link"), **SMALL)
        parts = decode_render_link(link["url"])
        self.assertTrue(parts.params["url"].endswith("-link"))
        first = self.client.fetch_signed(link["url"])
        self.assertEqual((first.metadata.cache, Png(first.bytes).width), ("miss", 400))
        self.assertEqual(self.client.fetch_signed(link["url"]).metadata.cache, "hit")

    @unittest.skipUnless(WEBHOOK_PORT, "EDGESHOT_WEBHOOK_PORT unset")
    def test_webhook_delivered_and_verified(self) -> None:
        receiver = Receiver(int(WEBHOOK_PORT))
        self.addCleanup(receiver.close)
        secret = self.client.account()["webhooks"]["signingSecret"]
        accepted = self.client.screenshot_async(
            url=page("boxes.html", "webhook"), **SMALL, webhookUrl=f"http://127.0.0.1:{WEBHOOK_PORT}/hook"
        )
        self.assertTrue(receiver.arrived.wait(120), "no webhook delivery within 120 s")
        headers, body = receiver.deliveries[0]
        event = verify_webhook(body, headers, secret)
        self.assertEqual(event["event"], "job.completed")
        self.assertEqual(event["jobId"], accepted["jobId"])
        self.assertEqual(headers["x-service-event"], "job.completed")

        def refused(raw: bytes, given: Dict[str, str], key: str = secret) -> Optional[str]:
            try:
                verify_webhook(raw, given, key)
            except WebhookVerificationError as err:
                return err.reason
            return None

        earlier = str(int(headers["x-service-timestamp"]) - 1)
        self.assertEqual(refused(body.replace(b"completed", b"failed"), headers), "bad_signature")
        self.assertEqual(refused(body, {**headers, "x-service-timestamp": earlier}), "bad_signature")
        self.assertEqual(refused(body, headers, secret + "x"), "bad_signature")
        with self.assertRaises(WebhookVerificationError) as stale:
            verify_webhook(body, headers, secret, now=int(headers["x-service-timestamp"]) + 301)
        self.assertEqual(stale.exception.reason, "stale_timestamp")

        # Webhook operations: the delivery is in the log, can be sent again, and a test ping goes out.
        hook = f"http://127.0.0.1:{WEBHOOK_PORT}/hook"
        logged = [d for d in self.client.webhooks.deliveries(limit=100)["items"] if d["url"] == hook]
        delivery_id = headers["x-service-delivery-id"]
        self.assertIn(delivery_id, [d["deliveryId"] for d in logged])
        receiver.arrived.clear()
        self.assertEqual(self.client.webhooks.redeliver(delivery_id)["deliveryId"], delivery_id)
        self.assertTrue(receiver.arrived.wait(60), "no redelivery within 60 s")
        self.assertEqual(receiver.deliveries[-1][0]["x-service-delivery-id"], delivery_id)
        result = self.client.webhooks.test(hook)
        self.assertEqual((result["delivered"], result["status"]), (True, 200))
        self.assertEqual(verify_webhook(receiver.deliveries[-1][1], receiver.deliveries[-1][0], secret)["event"], "test.ping")

    def test_400_is_an_edgeshot_error(self) -> None:
        with self.assertRaises(EdgeshotError) as caught:
            self.client.screenshot(url=page("boxes.html", "bad"), width=5)
        err = caught.exception
        self.assertEqual((err.status, err.code), (400, VALIDATION_ERROR))
        self.assertIn("width", [d["path"] for d in err.details])
        self.assertTrue(err.request_id and err.request_id.startswith("req_"), err.request_id)
        # The request log has it a moment later (written just after the answer), with the code.
        logged: List[Any] = []
        for _ in range(20):
            logged = [r for r in self.client.requests(status="4xx")["items"] if r["requestId"] == err.request_id]
            if logged:
                break
            time.sleep(0.25)
        self.assertEqual([(r["route"], r["errorCode"]) for r in logged], [("/v1/screenshot", VALIDATION_ERROR)])

    def test_401_is_an_edgeshot_error(self) -> None:
        with self.assertRaises(EdgeshotError) as caught:
            Edgeshot("svc_nope", BASE_URL).account()
        err = caught.exception
        self.assertEqual((err.status, err.code), (401, INVALID_API_KEY))
        self.assertTrue(err.message)
        self.assertTrue(err.request_id and err.request_id.startswith("req_"), err.request_id)

    def site_path(self, url: str) -> str:
        """A crawl fixture site URL as its path and query; another origin's URL whole."""
        parts = urllib.parse.urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != CRAWL_SITE_URL:
            return url
        return parts.path + (f"?{parts.query}" if parts.query else "")

    @unittest.skipUnless(CRAWL_SITE_URL, "EDGESHOT_CRAWL_SITE_URL unset")
    def test_crawl_waited_for_and_paged_through(self) -> None:
        started = self.client.crawl.start(
            url=f"{CRAWL_SITE_URL}/articles?page=1",
            limit=3,
            maxDepth=1,
            sitemap="skip",
            include=["/articles/*"],
            width=400,
            height=300,
            waitUntil="load",
        )
        self.assertEqual(started["status"], "queued")
        crawl = self.client.crawl.wait(started["crawlId"], interval=0.5, timeout=100)
        self.assertEqual((crawl["status"], crawl.get("stoppedBy")), ("completed", "limit"))
        self.assertEqual((crawl["counts"]["rendered"], crawl["creditsUsed"]), (3, 3))
        # One result a request: the generator must follow nextCursor to yield them all.
        one_by_one = list(self.client.crawl.pages(started["crawlId"], limit=1))
        counts = crawl["counts"]
        self.assertEqual(len(one_by_one), counts["rendered"] + counts["skipped"] + counts["failed"])
        self.assertGreater(len(one_by_one), 3)
        self.assertEqual(list(self.client.crawl.pages(started["crawlId"])), one_by_one)
        rendered = [p for p in one_by_one if p["status"] == "rendered"]
        self.assertEqual(len(rendered), 3)
        self.assertIn("/articles?page=1", [self.site_path(p["url"]) for p in rendered])
        for p in rendered:
            path = self.site_path(p["url"])
            if path.startswith("/articles/"):
                n = path.rsplit("/", 1)[1]
                self.assertIn(f"marker crawl-article-{n} appears on this page only", p.get("markdown", ""))
        skipped = {self.site_path(p["url"]) for p in one_by_one if p.get("reason") == "pattern"}
        self.assertLessEqual({"/", "/articles?page=2"}, skipped)
        # status filters; errors() lists what was refused or failed (nothing, here).
        only_skipped = list(self.client.crawl.pages(started["crawlId"], status="skipped"))
        self.assertEqual(only_skipped, [p for p in one_by_one if p["status"] == "skipped"])
        self.assertEqual(list(self.client.crawl.errors(started["crawlId"])), [])
        # A dry run, start page only: nothing rendered, nothing started.
        start_url = f"{CRAWL_SITE_URL}/articles?page=1"
        dry = self.client.crawl.dry_run(url=start_url, maxDepth=0, limit=3)
        self.assertEqual(
            dry, {"dryRun": True, "urls": [start_url], "truncated": False, "credits": 1, "maxCredits": 3}
        )
        listed = self.client.crawl.list(limit=10)["items"]
        self.assertIn(started["crawlId"], [c["crawlId"] for c in listed])

    @unittest.skipUnless(CRAWL_SITE_URL, "EDGESHOT_CRAWL_SITE_URL unset")
    def test_crawl_cancelled(self) -> None:
        started = self.client.crawl.start(
            {"url": f"{CRAWL_SITE_URL}/", "limit": 5, "sitemap": "skip", "waitUntil": "load"}
        )
        self.assertEqual(self.client.crawl.cancel(started["crawlId"])["status"], "cancelled")
        crawl = self.client.crawl.wait(started["crawlId"], interval=0.5, timeout=30)
        self.assertEqual((crawl["status"], crawl.get("stoppedBy")), ("cancelled", "cancelled"))
        self.assertEqual(crawl["creditsUsed"], crawl["counts"]["rendered"])
        with self.assertRaises(EdgeshotError) as caught:
            self.client.crawl.get("00000000-0000-4000-8000-000000000000")
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "CRAWL_NOT_FOUND"))

    @unittest.skipUnless(CRAWL_SITE_URL, "EDGESHOT_CRAWL_SITE_URL unset")
    def test_map(self) -> None:
        mapped = self.client.map(url=f"{CRAWL_SITE_URL}/")
        usage = meta_of(mapped).get("usage")
        self.assertEqual(usage and usage["credits"], 1)
        by_source: Dict[str, List[str]] = {"sitemap": [], "links": []}
        for entry in mapped["urls"]:
            by_source[entry["source"]].append(self.site_path(entry["url"]))
        self.assertLessEqual({"/orphan", "/orphan-gz"}, set(by_source["sitemap"]))
        self.assertLessEqual({"/cycle/a", "/slow"}, set(by_source["links"]))
        self.assertNotIn("/private/secret", by_source["sitemap"] + by_source["links"])
        self.assertFalse(mapped["truncated"])
        cut = self.client.map({"url": f"{CRAWL_SITE_URL}/", "limit": 2, "sitemap": "skip"})
        self.assertEqual((len(cut["urls"]), cut["truncated"]), (2, True))

    def test_monitor_checked_and_paged_through(self) -> None:
        # Only the start page, captured once (no noise learning): one page load for the check, one
        # for the dry run's map.
        site = f"{FIXTURE_URL}/mon/py-{RUN}-monitor/"
        settings: MonitorRequest = {
            "url": site,
            "scope": "path",
            "sitemap": "skip",
            "limit": 3,
            "maxDepth": 0,
            "learnVolatile": False,
            "width": 640,
            "height": 480,
        }
        monitors = self.client.monitors
        monitor = monitors.create(settings, name="Python site", paused=True)
        monitor_id = monitor["monitorId"]
        self.assertEqual(
            (monitor["name"], monitor["url"], monitor["status"], monitor["nextCheckAt"], monitor["lastCheck"]),
            ("Python site", site, "paused", None, None),
        )
        self.assertEqual(monitor["schedule"], {"intervalMinutes": 1440})
        self.assertEqual((monitor["settings"]["limit"], monitor["settings"]["maxDepth"]), (3, 0))

        # Paused: no check started by itself, but one now does.
        self.assertEqual(monitors.checks(monitor_id)["items"], [])
        queued = monitors.check(monitor_id)
        self.assertEqual((queued["trigger"], queued["baseline"]), ("manual", True))
        check = monitors.wait_for_check(monitor_id, queued["checkId"], interval=0.5, timeout=100)
        self.assertEqual(check["status"], "completed")
        self.assertEqual(check["counts"], {"new": 1, "removed": 0, "changed": 0, "unchanged": 0, "failed": 0})
        self.assertEqual(check["creditsUsed"], 1)
        self.assertEqual(monitors.get_check(monitor_id, queued["checkId"])["completedAt"], check["completedAt"])
        listed = monitors.checks(monitor_id, status="completed", limit=5)["items"]
        self.assertEqual([c["checkId"] for c in listed], [queued["checkId"]])
        last = monitors.get(monitor_id)["lastCheck"]
        self.assertEqual(last and last["checkId"], queued["checkId"])

        # The baseline's one page, new, with its capture at the monitor's viewport.
        pages = list(monitors.pages(monitor_id, queued["checkId"], limit=1))
        self.assertEqual([(p["url"], p["status"]) for p in pages], [(site, "new")])
        capture = Png(self.client.fetch_signed(pages[0]["screenshotUrl"]).bytes)
        self.assertEqual((capture.width, capture.height), (640, 480))
        self.assertEqual(list(monitors.pages(monitor_id, queued["checkId"], status="changed")), [])

        # The dry run (maxDepth 0: the start page alone) charges nothing.
        used = self.client.account()["usage"]["used"]
        dry = monitors.dry_run(settings)
        self.assertEqual(
            dry,
            {
                "dryRun": True,
                "urls": [site],
                "truncated": False,
                "creditsPerCheck": 1,
                "checksPerMonth": 30,
                "creditsPerMonth": 30,
            },
        )
        self.assertEqual(self.client.account()["usage"]["used"], used)

        changed = monitors.update(monitor_id, name=None, minChangedWords=3)
        self.assertIsNone(changed["name"])
        self.assertEqual(changed["settings"]["minChangedWords"], 3)
        resumed = monitors.resume(monitor_id)
        self.assertEqual(resumed["status"], "active")
        self.assertIsNotNone(resumed["nextCheckAt"])
        paused = monitors.pause(monitor_id)
        self.assertEqual((paused["status"], paused["nextCheckAt"]), ("paused", None))
        self.assertIn(monitor_id, [m["monitorId"] for m in monitors.list(status="paused")["items"]])

        self.assertEqual(monitors.delete(monitor_id), {"monitorId": monitor_id, "deleted": True})
        with self.assertRaises(EdgeshotError) as caught:
            monitors.get(monitor_id)
        self.assertEqual((caught.exception.status, caught.exception.code), (404, MONITOR_NOT_FOUND))

    def test_account(self) -> None:
        account = self.client.account()
        self.assertEqual(account["plan"], "pro")
        self.assertTrue(self.client.credential_check()["valid"])


if __name__ == "__main__":
    unittest.main()
