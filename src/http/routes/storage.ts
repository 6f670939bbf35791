/**
 * Storage destinations (Pro and Enterprise): the customer's own S3-compatible buckets that
 * async results are delivered to. Create (endpoint checked, probe written and deleted, secret
 * sealed), list, read, delete, and `test` (the probe again). The secret is never returned.
 * Another account's destination is indistinguishable from an unknown one: 404 NOT_FOUND.
 */
import { Hono } from "hono";
import { destinationRequestSchema } from "../../../schemas/storage";
import { type DestinationRecord, destinationView } from "../../storage/destination-store";
import { requireFeature } from "../../accounts/policy";
import type { AuthContext } from "../../accounts/auth";
import { ApiError } from "../../errors";
import { createDestination, openDestination, probeBucket } from "../../storage/destinations";
import { jsonBody } from "../body";
import { successBody } from "../envelope";
import { authenticate } from "../middleware/authenticate";
import type { AppEnv } from "../types";

const ID = /^dst_[A-Za-z0-9]{1,40}$/;

async function record(auth: AuthContext, destinationId: string): Promise<DestinationRecord> {
  const found = ID.test(destinationId)
    ? await auth.account.destinations().record(destinationId)
    : null;
  if (!found) throw new ApiError("NOT_FOUND", "No storage destination with this id.");
  return found;
}

export const storageRoutes = new Hono<AppEnv>()
  .post("/storage/destinations", authenticate(), async (c) => {
    const auth = c.get("auth");
    requireFeature(auth, "storageDestinations");
    const body = await jsonBody(c, destinationRequestSchema);
    const created = await createDestination(c.env, auth, body);
    return c.json(successBody(c.get("requestId"), created), 201);
  })
  .get("/storage/destinations", authenticate(), async (c) => {
    const auth = c.get("auth");
    requireFeature(auth, "storageDestinations");
    return c.json(
      successBody(c.get("requestId"), { items: await auth.account.destinations().list() }),
    );
  })
  .get("/storage/destinations/:destinationId", authenticate(), async (c) => {
    const auth = c.get("auth");
    requireFeature(auth, "storageDestinations");
    const found = await record(auth, c.req.param("destinationId"));
    return c.json(successBody(c.get("requestId"), destinationView(found)));
  })
  .delete("/storage/destinations/:destinationId", authenticate(), async (c) => {
    const auth = c.get("auth");
    requireFeature(auth, "storageDestinations");
    const id = c.req.param("destinationId");
    const deleted = ID.test(id) && (await auth.account.destinations().delete(id));
    if (!deleted) throw new ApiError("NOT_FOUND", "No storage destination with this id.");
    return c.json(successBody(c.get("requestId"), { destinationId: id, deleted: true }));
  })
  .post("/storage/destinations/:destinationId/test", authenticate(), async (c) => {
    const auth = c.get("auth");
    requireFeature(auth, "storageDestinations");
    const found = await record(auth, c.req.param("destinationId"));
    const open = await openDestination(c.env, found);
    await probeBucket(open.target, found);
    return c.json(
      successBody(c.get("requestId"), { destinationId: found.destinationId, ok: true }),
    );
  });
