/** Binary captures: the bytes, and the metadata headers that come with them, parsed. */

/** The metadata headers of a binary capture, parsed. */
export interface CaptureMetadata {
  url: string;
  width: number;
  height: number;
  size: number;
  capturedAt: string;
  format: string;
  quality: string;
  waitStrategy: string;
  loadTimeMs: number;
  truncated: boolean;
  autoScrolled: boolean;
  watermarked: boolean;
  creditsCharged: number | null;
  /** null when the plan is unlimited. */
  creditsRemaining: number | null;
  cache: "hit" | "miss" | null;
}

export interface CaptureBytes {
  bytes: Uint8Array;
  contentType: string;
  metadata: CaptureMetadata;
}

const num = (v: string | null) => (v === null || v === "" ? null : Number(v));

function metadataOf(headers: Headers): CaptureMetadata {
  const remaining = headers.get("x-service-credits-remaining");
  const cache = headers.get("x-service-cache");
  return {
    url: headers.get("x-screenshot-url") ?? "",
    width: num(headers.get("x-screenshot-width")) ?? 0,
    height: num(headers.get("x-screenshot-height")) ?? 0,
    size: num(headers.get("x-screenshot-size")) ?? 0,
    capturedAt: headers.get("x-screenshot-captured-at") ?? "",
    format: headers.get("x-service-format") ?? "",
    quality: headers.get("x-service-quality") ?? "",
    waitStrategy: headers.get("x-service-wait-strategy") ?? "",
    loadTimeMs: num(headers.get("x-service-load-time-ms")) ?? 0,
    truncated: headers.get("x-service-truncated") === "true",
    autoScrolled: headers.get("x-service-auto-scrolled") === "true",
    watermarked: headers.get("x-service-watermarked") === "true",
    creditsCharged: num(headers.get("x-service-credits-charged")),
    creditsRemaining: remaining === "unlimited" ? null : num(remaining),
    cache: cache === "hit" || cache === "miss" ? cache : null,
  };
}

export async function captureBytes(res: Response): Promise<CaptureBytes> {
  return {
    bytes: new Uint8Array(await res.arrayBuffer()),
    contentType: res.headers.get("content-type") ?? "application/octet-stream",
    metadata: metadataOf(res.headers),
  };
}

/** A recording (POST /v1/animate): the video or GIF bytes and the clip's headers, parsed. */
export interface AnimationBytes {
  bytes: Uint8Array;
  contentType: string;
  width: number;
  height: number;
  frames: number;
  durationMs: number;
  finalUrl: string;
  loadTimeMs: number;
  creditsCharged: number | null;
  /** null when the plan is unlimited. */
  creditsRemaining: number | null;
}

export async function animationBytes(res: Response): Promise<AnimationBytes> {
  const h = res.headers;
  const remaining = h.get("x-service-credits-remaining");
  return {
    bytes: new Uint8Array(await res.arrayBuffer()),
    contentType: h.get("content-type") ?? "application/octet-stream",
    width: num(h.get("x-animation-width")) ?? 0,
    height: num(h.get("x-animation-height")) ?? 0,
    frames: num(h.get("x-animation-frames")) ?? 0,
    durationMs: num(h.get("x-animation-duration-ms")) ?? 0,
    finalUrl: h.get("x-service-final-url") ?? "",
    loadTimeMs: num(h.get("x-service-load-time-ms")) ?? 0,
    creditsCharged: num(h.get("x-service-credits-charged")),
    creditsRemaining: remaining === "unlimited" ? null : num(remaining),
  };
}
