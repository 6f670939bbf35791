"""Webhook operations: the delivery log (last 7 days), redelivery and a test send."""

import urllib.parse
from typing import Optional

from .._transport import Transport
from ..types import ListWebhookDeliveriesResult, WebhookDelivery, WebhookTestResult


class Webhooks:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def deliveries(
        self, status: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None
    ) -> ListWebhookDeliveriesResult:
        """GET /v1/webhooks/deliveries: newest first, `{items, nextCursor}`."""
        page: ListWebhookDeliveriesResult = self._t.json(
            "GET", "/v1/webhooks/deliveries", query={"status": status, "limit": limit, "cursor": cursor}
        )
        return page

    def redeliver(self, delivery_id: str) -> WebhookDelivery:
        """POST /v1/webhooks/deliveries/{id}/redeliver: queues a finished delivery again."""
        path = f"/v1/webhooks/deliveries/{urllib.parse.quote(delivery_id, safe='')}/redeliver"
        delivery: WebhookDelivery = self._t.json("POST", path)
        return delivery

    def test(self, url: str) -> WebhookTestResult:
        """POST /v1/webhooks/test: a signed test.ping sent now; `{delivered, status, error?}`."""
        result: WebhookTestResult = self._t.json("POST", "/v1/webhooks/test", {"url": url})
        return result
