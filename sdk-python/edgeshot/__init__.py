"""
edgeshot: a typed client for the Edgeshot screenshot, render and extraction API.
Standard library only. Types are generated from the OpenAPI document (./types.py); the client
is hand-written (./client.py, its transport and resources).
"""

from . import types
from ._transport import __version__, meta_of
from .captures import Animation, Capture, CaptureMetadata
from .client import Edgeshot
from .errors import EdgeshotError
from .render_links import RenderLinkParts, decode_render_link, img_tag, og_image_tags
from .webhooks import WebhookVerificationError, sign_webhook, verify_webhook

__all__ = [
    "Animation",
    "Capture",
    "CaptureMetadata",
    "Edgeshot",
    "EdgeshotError",
    "RenderLinkParts",
    "WebhookVerificationError",
    "__version__",
    "decode_render_link",
    "img_tag",
    "meta_of",
    "og_image_tags",
    "sign_webhook",
    "types",
    "verify_webhook",
]
