"""Storage destinations: customer buckets that async results are delivered to."""

import urllib.parse

from .._transport import Transport
from ..types import (
    DeleteDestinationResult,
    Destination,
    DestinationRequest,
    ListDestinationsResult,
    TestDestinationResult,
)


def _path(destination_id: str) -> str:
    return f"/v1/storage/destinations/{urllib.parse.quote(destination_id, safe='')}"


class Destinations:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, request: DestinationRequest) -> Destination:
        """POST /v1/storage/destinations (the credentials are checked, then kept encrypted)."""
        created: Destination = self._t.json("POST", "/v1/storage/destinations", request)
        return created

    def list(self) -> ListDestinationsResult:
        """GET /v1/storage/destinations."""
        page: ListDestinationsResult = self._t.json("GET", "/v1/storage/destinations")
        return page

    def get(self, destination_id: str) -> Destination:
        destination: Destination = self._t.json("GET", _path(destination_id))
        return destination

    def delete(self, destination_id: str) -> DeleteDestinationResult:
        deleted: DeleteDestinationResult = self._t.json("DELETE", _path(destination_id))
        return deleted

    def test(self, destination_id: str) -> TestDestinationResult:
        """POST …/test: writes and removes a probe object."""
        tested: TestDestinationResult = self._t.json("POST", f"{_path(destination_id)}/test")
        return tested
