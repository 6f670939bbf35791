/** Storage destinations: customer buckets that async results are delivered to. */
import type { Destination, DestinationRequest } from "../generated/index.js";
import type { Transport } from "../transport.js";

const destinationPath = (id: string) => `/v1/storage/destinations/${encodeURIComponent(id)}`;

export function destinationsResource(t: Transport) {
  return {
    create: (request: DestinationRequest) =>
      t.json<Destination>("POST", "/v1/storage/destinations", request),
    list: () => t.json<{ items: Destination[] }>("GET", "/v1/storage/destinations"),
    get: (id: string) => t.json<Destination>("GET", destinationPath(id)),
    delete: (id: string) =>
      t.json<{ destinationId: string; deleted: true }>("DELETE", destinationPath(id)),
    test: (id: string) =>
      t.json<{ destinationId: string; ok: true }>("POST", `${destinationPath(id)}/test`),
  };
}
