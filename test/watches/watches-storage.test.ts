/**
 * Watches with a storage destination (s3rver): each run's PNG also lands in the customer's
 * bucket under `{watchId}` (the watch key template's default), byte for byte the run's image,
 * while our R2 copy stays for the next comparison. The plan gate and an unknown destination are
 * refused at creation.
 */
import { describe, expect, it } from "vitest";
import { accountDo } from "../helpers/account-do";
import { BASE, call, FIXTURES } from "../helpers/http";
import { createDestination, listKeys, newKeyPair, readObject } from "../helpers/s3";
import {
  createWatch,
  fireAlarm,
  mustCreate,
  runs,
  waitForRun,
  watchAccount,
  watchBody,
} from "../helpers/watches";
import { SMALL_CAPTURE } from "../helpers/capture";

describe("watches delivering to a storage destination", () => {
  it("each run's image goes to the bucket under the watch id; the R2 copy stays", async () => {
    const acc = await watchAccount("pro");
    const destinationId = await createDestination(acc.auth, await newKeyPair());
    const watch = await mustCreate(acc, {
      url: `${FIXTURES}/boxes.html`,
      intervalMinutes: 60,
      capture: SMALL_CAPTURE,
      storage: { destinationId },
    });
    expect(watch.storage).toEqual({
      destinationId,
      key: "edgeshot/watches/{watchId}/{date}/{jobId}.{ext}",
    });
    await fireAlarm(acc.accountId);
    const [first] = await runs(acc.accountId, watch.id);
    const run = await waitForRun(acc.accountId, first?.id ?? "");
    expect(run.status, JSON.stringify(run)).toBe("completed");
    const keys = await listKeys("edgeshot-test", `edgeshot/watches/${watch.id}/`);
    expect(keys).toEqual([expect.stringMatching(new RegExp(`/${run.jobId}\\.png$`))]);
    const stored = await readObject("edgeshot-test", keys[0] ?? "");
    const ours = await call((run.imageUrl ?? "").slice(BASE.length));
    expect(ours.status).toBe(200);
    expect(stored?.bytes).toEqual(new Uint8Array(await ours.arrayBuffer()));
    expect(
      (
        await accountDo(acc.accountId)
          .jobs()
          .get(run.jobId ?? "")
      )?.status,
    ).toBe("completed");
  });

  it("refused at creation: below Pro (403) and an unknown destination (404)", async () => {
    const starter = await watchAccount("starter");
    const gated = await createWatch(starter, watchBody({ storage: { destinationId: "dst_nope" } }));
    expect(gated.status).toBe(403);
    expect(gated.body.error?.code).toBe("PLAN_UPGRADE_REQUIRED");
    const pro = await watchAccount("pro");
    const unknown = await createWatch(pro, watchBody({ storage: { destinationId: "dst_nope" } }));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.details?.[0]?.path).toBe("storage.destinationId");
  });
});
