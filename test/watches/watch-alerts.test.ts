/**
 * Alerts on a watch's fields, through real runs (fixture `/watched`, whose page the test sets per
 * run): the fields are read from each run's one page load and shown on the run; a 10 % price
 * drop fires its rule and a 2 % one does not; "back in stock" fires once; `onFirstRun` fires a
 * condition that already holds on the first run; each firing run sends one signed watch.alert
 * naming the rules with the old and new values. Bad rules are 400s naming the field.
 */
import { describe, expect, it } from "vitest";
import type { WatchRunView } from "../../schemas/watches";
import { FIXTURES, fixtureLog, runId } from "../helpers/http";
import { waitForWebhooks, webhookUrl } from "../helpers/jobs";
import {
  createWatch,
  fireAlarm,
  mustCreate,
  runNow,
  runs,
  waitForRun,
  watchAccount,
  type WatchAccount,
} from "../helpers/watches";
import { SMALL_CAPTURE } from "../helpers/capture";

/** The product page: its price written the German way, and its stock line. */
const product = (price: string, stock: string) =>
  `<!doctype html><html lang="de"><body><h1>Kaffeemühle</h1>
   <p class="price">${price} €</p><p class="stock">${stock}</p></body></html>`;

async function setPage(run: string, html: string): Promise<void> {
  const res = await fetch(`${FIXTURES}/__page`, {
    method: "POST",
    body: JSON.stringify({ run, html }),
  });
  if (!res.ok) throw new Error(`__page: ${res.status}`);
}

async function manual(acc: WatchAccount, watchId: string): Promise<WatchRunView> {
  const res = await runNow(acc, watchId);
  expect(res.status).toBe(202);
  return waitForRun(acc.accountId, res.body.data?.runId ?? "");
}

const FIELDS = {
  price: { selector: ".price", type: "number", decimal: "," },
  stock: { selector: ".stock" },
};

describe("alerts on a watch's fields (real browser, real queues)", () => {
  it("a 10 % drop fires, a 2 % one does not; back in stock fires once; onFirstRun fires at once", async () => {
    const acc = await watchAccount("pro");
    const run = runId();
    await setPage(run, product("1.000,00", "Ausverkauft"));
    const watch = await mustCreate(acc, {
      url: `${FIXTURES}/watched?run=${run}`,
      intervalMinutes: 60,
      capture: SMALL_CAPTURE,
      webhookUrl: webhookUrl(run),
      // The page's pixels change with its price: only the field rules may send anything.
      changeDetection: {
        thresholdPercent: 100,
        fields: FIELDS,
        alerts: [
          { field: "price", rule: "decreased", byPercent: 10 },
          { field: "stock", rule: "becomes", value: "Auf Lager" },
          { field: "price", rule: "below", value: 5000, onFirstRun: true },
        ],
      },
    });
    expect(watch.changeDetection.alerts).toHaveLength(3);

    await fireAlarm(acc.accountId);
    const [first] = await runs(acc.accountId, watch.id);
    const baseline = await waitForRun(acc.accountId, first?.id ?? "");
    expect(baseline).toMatchObject({
      status: "completed",
      fields: { price: 1000, stock: "Ausverkauft" },
      alerts: [{ field: "price", rule: "below", value: 5000, previous: null, current: 1000 }],
    });

    await setPage(run, product("980,00", "Ausverkauft")); // −2 %
    const small = await manual(acc, watch.id);
    expect(small).toMatchObject({ status: "completed", fields: { price: 980 } });
    expect(small.alerts).toBeUndefined();

    await setPage(run, product("882,00", "Auf Lager")); // −10 % of 980, and back in stock
    const drop = await manual(acc, watch.id);
    expect(drop.alerts).toEqual([
      { field: "price", rule: "decreased", byPercent: 10, previous: 980, current: 882 },
      {
        field: "stock",
        rule: "becomes",
        value: "Auf Lager",
        previous: "Ausverkauft",
        current: "Auf Lager",
      },
    ]);

    const same = await manual(acc, watch.id); // still in stock, same price: nothing
    expect(same).toMatchObject({ status: "completed", fields: { price: 882, stock: "Auf Lager" } });
    expect(same.alerts).toBeUndefined();

    // Two firing runs, two watch.alert deliveries (and no watch.changed: the threshold is 100 %).
    const hooks = await waitForWebhooks(run, 2);
    const bodies = hooks.map((h) => JSON.parse(h.body) as Record<string, unknown>);
    expect(hooks.map((h) => h.headers["x-service-event"])).toEqual(["watch.alert", "watch.alert"]);
    expect(bodies.find((b) => b.runId === drop.id)).toEqual({
      event: "watch.alert",
      watchId: watch.id,
      runId: drop.id,
      url: watch.url,
      alerts: drop.alerts,
      fields: { price: 882, stock: "Auf Lager" },
      imageUrl: drop.imageUrl,
      detectedAt: drop.completedAt,
    });
    expect(bodies.map((b) => b.runId).sort()).toEqual([baseline.id, drop.id].sort());
    // Settled: the receiver got nothing more.
    const log = await fixtureLog(run);
    expect(log.filter((r) => r.path === "/webhook")).toHaveLength(2);
  }, 120_000); // four watch runs, one after another, each through the real queue

  it("a rule must name a single-value field of `fields`, with the value its rule needs: 400 naming it", async () => {
    const acc = await watchAccount("pro");
    const body = (changeDetection: Record<string, unknown>) => ({
      url: `${FIXTURES}/watched?run=${runId()}`,
      intervalMinutes: 60,
      changeDetection,
    });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ fields: FIELDS, alerts: [{ field: "cost", rule: "changed" }] }, "alerts[0].field"],
      [{ alerts: [{ field: "price", rule: "changed" }] }, "alerts[0].field"],
      [{ fields: FIELDS, alerts: [{ field: "price", rule: "below" }] }, "alerts[0].value"],
      [
        { fields: FIELDS, alerts: [{ field: "price", rule: "above", value: "5" }] },
        "alerts[0].value",
      ],
      [{ fields: FIELDS, alerts: [{ field: "stock", rule: "becomes" }] }, "alerts[0].value"],
      [
        { fields: FIELDS, alerts: [{ field: "price", rule: "changed", byPercent: 5 }] },
        "alerts[0].byPercent",
      ],
      [{ fields: FIELDS, alerts: [{ field: "price", rule: "rises" }] }, "alerts[0].rule"],
      [
        {
          fields: { tags: { selector: "li", list: true } },
          alerts: [{ field: "tags", rule: "changed" }],
        },
        "alerts[0].field",
      ],
      [
        {
          fields: FIELDS,
          alerts: Array.from({ length: 21 }, () => ({ field: "price", rule: "changed" })),
        },
        "alerts",
      ],
      [{ fields: { price: { selector: "" } } }, "fields.price.selector"],
    ];
    for (const [changeDetection, path] of cases) {
      const res = await createWatch(acc, body(changeDetection));
      expect(res.status, path).toBe(400);
      const details = res.body.error?.details ?? [];
      expect(
        details.map((d) => d.path),
        JSON.stringify(changeDetection),
      ).toContain(`changeDetection.${path}`);
    }
  });
});
