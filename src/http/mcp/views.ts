/**
 * What a tool shows a model of a capture: the screenshot sized for its eyes, a PDF's page count.
 *
 * A model looks at images of at most 1,568 px on the long edge (larger ones are scaled down by
 * the model's host anyway, after costing the transfer) and a tool result should stay well under
 * the clients' message limits, so the inline image is at most `VIEW.longEdge` px and
 * `VIEW.maxBytes`. A full-page capture is scaled as a whole, not tiled: one image keeps the
 * page's layout in view and the result small, the full-size capture is the hosted link beside
 * it, and the page's text is what read_page is for (docs/MCP.md).
 */
import { imageSize } from "../../capture/outputs/image-info";
import { resizeOnBrowserHost } from "../../pipeline/engine";

export const VIEW = { longEdge: 1568, maxBytes: 1_000_000 } as const;

export interface ModelView {
  bytes: Uint8Array;
  mimeType: string;
  width: number;
  height: number;
}

/** The box `width`×`height` scaled by `factor`, whole pixels, at least 1. */
function scaled(width: number, height: number, factor: number) {
  return {
    width: Math.max(1, Math.floor(width * factor)),
    height: Math.max(1, Math.floor(height * factor)),
  };
}

/**
 * The capture as is when it fits, else downscaled on a BrowserHost (PNG) until it does; null
 * when even the smaller tries stay over `VIEW.maxBytes` (the hosted link is then all there is).
 */
export async function modelView(
  env: Env,
  image: { bytes: Uint8Array; contentType: string; width: number; height: number },
  accountId: string,
): Promise<ModelView | null> {
  const { width, height } = image;
  let factor = Math.min(1, VIEW.longEdge / Math.max(width, height));
  if (factor === 1 && image.bytes.byteLength <= VIEW.maxBytes) {
    return { bytes: image.bytes, mimeType: image.contentType, width, height };
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const box = scaled(width, height, factor);
    const bytes = await resizeOnBrowserHost(
      env,
      image.bytes,
      { width: box.width, height: null },
      accountId,
    );
    if (bytes.byteLength <= VIEW.maxBytes) {
      const size = imageSize(bytes) ?? box;
      return { bytes, mimeType: "image/png", width: size.width, height: size.height };
    }
    // PNG bytes grow about with the pixel count: aim 10% under the limit.
    factor *= Math.sqrt((VIEW.maxBytes * 0.9) / bytes.byteLength);
  }
  return null;
}
