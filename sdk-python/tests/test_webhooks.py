"""
verify_webhook and the render-link helpers, offline. A signature made by the Worker's own code
(src/webhooks/sign.ts) comes in through EDGESHOT_SIGNED_* (set by test/e2e/python-sdk.test.ts);
a real delivery is verified in test_live.py.
"""

import os
import sys
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from edgeshot import (  # noqa: E402
    WebhookVerificationError,
    decode_render_link,
    img_tag,
    og_image_tags,
    sign_webhook,
    verify_webhook,
)

SECRET = "whsec_test_0123456789"
BODY = b'{"event":"job.completed","jobId":"job_1","status":"completed"}'


def reason(body: bytes, headers: object, secret: str = SECRET, **kw: int) -> str:
    try:
        verify_webhook(body, headers, secret, **kw)  # type: ignore[arg-type]
    except WebhookVerificationError as err:
        return err.reason
    return "ok"


class VerifyWebhookTest(unittest.TestCase):
    def headers(self, timestamp: int, body: bytes = BODY) -> dict:
        return {
            "X-Service-Timestamp": str(timestamp),
            "X-Service-Signature": sign_webhook(SECRET, timestamp, body),
        }

    def test_a_genuine_delivery_returns_its_event(self) -> None:
        event = verify_webhook(BODY, self.headers(int(time.time())), SECRET)
        self.assertEqual(event["jobId"], "job_1")
        self.assertEqual(verify_webhook(BODY.decode(), list(self.headers(int(time.time())).items()), SECRET), event)

    def test_tampering_and_replays_are_refused(self) -> None:
        now = int(time.time())
        self.assertEqual(reason(BODY.replace(b"job_1", b"job_2"), self.headers(now)), "bad_signature")
        self.assertEqual(reason(BODY, self.headers(now), secret="another"), "bad_signature")
        self.assertEqual(reason(BODY, self.headers(now - 301)), "stale_timestamp")
        self.assertEqual(reason(BODY, self.headers(now + 301)), "stale_timestamp")
        self.assertEqual(reason(BODY, self.headers(now - 301), tolerance=600), "ok")
        forged = {**self.headers(now), "X-Service-Timestamp": str(now - 1)}
        self.assertEqual(reason(BODY, forged), "bad_signature")
        self.assertEqual(reason(BODY, {"x-service-timestamp": str(now)}), "missing_header")
        self.assertEqual(reason(BODY, {**self.headers(now), "X-Service-Timestamp": "12.5"}), "malformed_timestamp")

    @unittest.skipUnless(os.environ.get("EDGESHOT_SIGNED_SIGNATURE"), "no Worker-made signature in EDGESHOT_SIGNED_*")
    def test_a_signature_made_by_the_worker_code(self) -> None:
        body = os.environ["EDGESHOT_SIGNED_BODY"].encode("utf-8")
        secret = os.environ["EDGESHOT_SIGNED_SECRET"]
        timestamp = int(os.environ["EDGESHOT_SIGNED_TIMESTAMP"])
        headers = {"x-service-timestamp": str(timestamp), "x-service-signature": os.environ["EDGESHOT_SIGNED_SIGNATURE"]}
        self.assertEqual(sign_webhook(secret, timestamp, body), headers["x-service-signature"])
        verify_webhook(body, headers, secret, now=timestamp + 10)
        self.assertEqual(reason(body + b" ", headers, secret, now=timestamp), "bad_signature")


class RenderLinkHelpersTest(unittest.TestCase):
    URL = (
        "https://edgeshot.example/v1/render?p=eyJrIjoia2V5XzEiLCJyIjp7InVybCI6Imh0dHBzOi8vZXhhbXBsZS5jb20ifX0"
        "&uid=acc_1&exp=1900000000&sig=" + "0" * 64
    )

    def test_decode(self) -> None:
        parts = decode_render_link(self.URL)
        self.assertEqual((parts.key_id, parts.params, parts.uid, parts.expires_at),
                         ("key_1", {"url": "https://example.com"}, "acc_1", 1900000000))
        with self.assertRaises(ValueError):
            decode_render_link("https://edgeshot.example/v1/render?p=%%%")

    def test_tags_escape_the_url(self) -> None:
        self.assertEqual(img_tag("https://x/?a=1&b=2", 'a "q"', {"width": 400}),
                         '<img src="https://x/?a=1&#38;b=2" alt="a &#34;q&#34;" width="400">')
        self.assertIn('<meta property="og:image" content="https://x/?a=1&#38;b=2">', og_image_tags("https://x/?a=1&b=2"))


if __name__ == "__main__":
    unittest.main()
