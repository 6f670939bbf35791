"""
The transport against a local `http.server` (no Edgeshot service needed): a 429 retried after
its Retry-After, a 503 SERVICE_BUSY retried, USAGE_EXCEEDED not, retries bounded, the
Idempotency-Key header sent, a client-side timeout, and no answer at all.
"""

import json
import sys
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from edgeshot import Edgeshot, EdgeshotError, meta_of  # noqa: E402
from edgeshot._transport import retry_after_seconds  # noqa: E402

Answer = Tuple[int, Dict[str, str], Dict[str, Any]]


def ok(data: Dict[str, Any]) -> Answer:
    return 200, {}, {"success": True, "data": data, "meta": {"requestId": "req_ok"}}


def fail(status: int, code: str, retry_after: Optional[str] = None) -> Answer:
    headers = {"retry-after": retry_after} if retry_after is not None else {}
    body = {"success": False, "error": {"code": code, "message": code}, "meta": {"requestId": "req_x"}}
    return status, headers, body


class FakeApi:
    """Answers each request with the next scripted answer; records what it was sent."""

    def __init__(self, answers: List[Answer], delay: float = 0.0) -> None:
        self.answers = list(answers)
        self.requests: List[Tuple[str, str, Dict[str, str], float]] = []
        self.bodies: List[bytes] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                fake.bodies.append(self.rfile.read(length))
                fake.requests.append(
                    (self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, time.monotonic())
                )
                if delay:
                    time.sleep(delay)
                status, headers, body = fake.answers.pop(0) if fake.answers else ok({})
                raw = json.dumps(body).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(raw)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (the timeout test)

            do_GET = do_POST = _answer

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class RetryTest(unittest.TestCase):
    def fake(self, answers: List[Answer], delay: float = 0.0) -> FakeApi:
        api = FakeApi(answers, delay)
        self.addCleanup(api.close)
        return api

    def test_429_is_retried_after_its_retry_after(self) -> None:
        api = self.fake([fail(429, "RATE_LIMITED", "1"), ok({"plan": "free"})])
        account = Edgeshot("svc_test", api.base).account()
        self.assertEqual(account["plan"], "free")
        self.assertEqual(meta_of(account)["requestId"], "req_ok")
        self.assertEqual(len(api.requests), 2)
        waited = api.requests[1][3] - api.requests[0][3]
        self.assertGreaterEqual(waited, 0.95, "the retry came before Retry-After")
        self.assertEqual(api.requests[0][2]["authorization"], "Bearer svc_test")

    def test_503_service_busy_is_retried(self) -> None:
        api = self.fake([fail(503, "SERVICE_BUSY", "0"), ok({"valid": True})])
        self.assertTrue(Edgeshot("svc_test", api.base).credential_check()["valid"])
        self.assertEqual(len(api.requests), 2)

    def test_usage_exceeded_is_not_retried(self) -> None:
        api = self.fake([fail(429, "USAGE_EXCEEDED", "3600"), ok({})])
        with self.assertRaises(EdgeshotError) as caught:
            Edgeshot("svc_test", api.base).account()
        self.assertEqual((caught.exception.code, caught.exception.status), ("USAGE_EXCEEDED", 429))
        self.assertEqual(caught.exception.retry_after, 3600)
        self.assertEqual(len(api.requests), 1)

    def test_retries_are_bounded(self) -> None:
        api = self.fake([fail(429, "RATE_LIMITED", "0")] * 5)
        with self.assertRaises(EdgeshotError) as caught:
            Edgeshot("svc_test", api.base, max_retries=2).account()
        self.assertEqual(caught.exception.code, "RATE_LIMITED")
        self.assertEqual(caught.exception.request_id, "req_x")
        self.assertEqual(len(api.requests), 3)

    def test_idempotency_key_and_body_are_sent_on_every_attempt(self) -> None:
        api = self.fake([fail(429, "RATE_LIMITED", "0"), ok({"jobId": "job_1", "status": "queued"})])
        job = Edgeshot("svc_test", api.base).screenshot_async(url="https://example.com", idempotency_key="idem-1")
        self.assertEqual(job["jobId"], "job_1")
        for method, path, headers, _ in api.requests:
            self.assertEqual((method, path), ("POST", "/v1/screenshot"))
            self.assertEqual(headers["idempotency-key"], "idem-1")
            self.assertEqual(headers["content-type"], "application/json")

    def test_animate_async_sends_async_and_never_hosted(self) -> None:
        api = self.fake([ok({"jobId": "job_2", "status": "queued"})])
        job = Edgeshot("svc_test", api.base).animate_async(
            url="https://example.com", format="gif", hosted=True, storage={"destinationId": "dst_a"}
        )
        self.assertEqual(job["jobId"], "job_2")
        [(method, path, _, _)] = api.requests
        self.assertEqual((method, path), ("POST", "/v1/animate"))
        self.assertEqual(
            json.loads(api.bodies[0]),
            {"url": "https://example.com", "format": "gif", "async": True, "storage": {"destinationId": "dst_a"}},
        )

    def test_animate_batch_posts_urls_and_defaults(self) -> None:
        accepted = {"batchId": "bat_1", "status": "queued", "totalJobs": 2, "jobs": []}
        api = self.fake([ok(accepted)])
        batch = Edgeshot("svc_test", api.base).animate_batch(
            urls=["https://example.com", "https://example.org"],
            defaults={"format": "gif", "duration": 2},
            webhookUrl="https://hooks.example.com/x",
            idempotency_key="idem-2",
        )
        self.assertEqual((batch["batchId"], batch["totalJobs"]), ("bat_1", 2))
        [(method, path, headers, _)] = api.requests
        self.assertEqual((method, path), ("POST", "/v1/animate/batch"))
        self.assertEqual(headers["idempotency-key"], "idem-2")
        self.assertEqual(
            json.loads(api.bodies[0]),
            {
                "urls": ["https://example.com", "https://example.org"],
                "defaults": {"format": "gif", "duration": 2},
                "webhookUrl": "https://hooks.example.com/x",
            },
        )

    def test_a_slow_answer_times_out(self) -> None:
        api = self.fake([ok({})], delay=1.5)
        with self.assertRaises(EdgeshotError) as caught:
            Edgeshot("svc_test", api.base, timeout=0.3).account()
        self.assertEqual((caught.exception.code, caught.exception.status), ("TIMEOUT", 0))

    def test_no_answer_is_a_network_error(self) -> None:
        api = FakeApi([])
        base = api.base
        api.close()
        with self.assertRaises(EdgeshotError) as caught:
            Edgeshot("svc_test", base).account()
        self.assertEqual((caught.exception.code, caught.exception.status), ("NETWORK_ERROR", 0))

    def test_retry_after_as_an_http_date(self) -> None:
        from email.utils import formatdate

        seconds = retry_after_seconds(formatdate(time.time() + 30, usegmt=True))
        assert seconds is not None
        self.assertTrue(28 <= seconds <= 30, seconds)
        self.assertIsNone(retry_after_seconds("soon"))


if __name__ == "__main__":
    unittest.main()
