"""
Render links: signed `/v1/render?p=&uid=&exp=&sig=` URLs to embed, and local helpers.

Minting needs the service (`Edgeshot.render_link()`): `sig` is an HMAC under the service's own
URL-signing secret, so no client can sign a link. What the spec does allow locally: reading a
link — `p` is base64url of the canonical JSON `{"k": keyId, "r": parameters}`, signed but not
encrypted — and building the `<img>` and og:image tags.
"""

import base64
import json
import urllib.parse
from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional, Union


def _escape(text: str) -> str:
    return "".join(f"&#{ord(c)};" if c in "&<>\"'" else c for c in text)


def img_tag(url: str, alt: str, attributes: Optional[Mapping[str, Union[str, int]]] = None) -> str:
    """`<img src=… alt=…>` for a link, HTML-escaped."""
    extra = "".join(f' {_escape(k)}="{_escape(str(v))}"' for k, v in (attributes or {}).items())
    return f'<img src="{_escape(url)}" alt="{_escape(alt)}"{extra}>'


def og_image_tags(url: str) -> str:
    """`<meta property="og:image">` and `<meta name="twitter:image">` for a link."""
    src = _escape(url)
    return f'<meta property="og:image" content="{src}">\n<meta name="twitter:image" content="{src}">'


@dataclass(frozen=True)
class RenderLinkParts:
    """What a render link says, read locally (its signature is checked only by the service)."""

    #: The id of the API key that minted it.
    key_id: str
    #: The capture parameters, as validated at minting (plus the effective cacheTtl).
    params: Dict[str, Any]
    #: The owning account.
    uid: str
    #: Expiry, Unix seconds.
    expires_at: int


def decode_render_link(url: str) -> RenderLinkParts:
    """Reads a render link's parameters, owner and expiry; ValueError when it is not one."""
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
    try:
        p, uid, exp = query["p"][0], query["uid"][0], query["exp"][0]
        raw = base64.urlsafe_b64decode(p + "=" * (-len(p) % 4))
        payload = json.loads(raw.decode("utf-8"))
        return RenderLinkParts(
            key_id=str(payload["k"]), params=dict(payload["r"]), uid=uid, expires_at=int(exp)
        )
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise ValueError(f"not a render link: {err}") from err
