/** Render links: signed capture URLs to embed, with helpers for `<img>` and og:image tags. */
import type { RenderLink, RenderLinkRequest } from "../generated/index.js";
import type { Transport, WithMeta } from "../transport.js";

export interface MintedRenderLink extends RenderLink {
  /** `<img src=… alt=…>` with the link, HTML-escaped. */
  imgTag(alt: string, attributes?: Record<string, string | number>): string;
  /** `<meta property="og:image" content=…>` (and twitter:image). */
  ogImageTags(): string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderLinksResource(t: Transport) {
  return {
    /** POST /v1/render/link: a signed URL, with helpers for `<img>` and og:image tags. */
    create: async (request: RenderLinkRequest): Promise<WithMeta<MintedRenderLink>> => {
      const link = await t.json<RenderLink>("POST", "/v1/render/link", request);
      const src = escapeHtml(link.url);
      return Object.assign(link, {
        imgTag(alt: string, attributes: Record<string, string | number> = {}) {
          const extra = Object.entries(attributes)
            .map(([k, v]) => ` ${escapeHtml(k)}="${escapeHtml(String(v))}"`)
            .join("");
          return `<img src="${src}" alt="${escapeHtml(alt)}"${extra}>`;
        },
        ogImageTags() {
          return `<meta property="og:image" content="${src}">\n<meta name="twitter:image" content="${src}">`;
        },
      });
    },
  };
}
