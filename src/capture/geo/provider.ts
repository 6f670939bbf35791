/**
 * What a geo provider adapter is: a render-through-proxy service spoken over HTTP. The adapter
 * only translates — a CaptureSpec into the provider's request, the provider's answer into ours
 * — so it is pure and table-testable; `capture/geo/through-provider.ts` does the fetch, the deadline,
 * the size cap and the PNG check once for every adapter.
 */
import type { CaptureFailure } from "../failures";
import type { CaptureSpec, GeoTarget } from "../capture-spec";

/** The provider's HTTP answer, its body already read (capped at the output size limit). */
export interface ProviderResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

export type ProviderAnswer =
  | { ok: true; png: Uint8Array; finalUrl: string | null }
  /** `detail` is for the logs only: never shown to the caller. */
  | { ok: false; failure: CaptureFailure; detail: Record<string, unknown> };

export interface GeoProvider {
  /** Targeting below country level this provider honours; the others are 422 before any call. */
  supports: { geoCity: boolean; geoState: boolean };
  /** What the proxy waited for, as `x-service-wait-strategy` reports it. */
  waitStrategy: string;
  /** The provider's request for a geo spec (its key inside: never log the URL). */
  request(
    spec: CaptureSpec & { geo: GeoTarget; source: { kind: "url" } },
    endpoint: string,
    apiKey: string,
  ): Request;
  interpret(response: ProviderResponse): ProviderAnswer;
}
