/**
 * One page of a monitor's check (docs/MONITORS.md), rendered by the crawl's machinery
 * (src/crawl/page-run.ts `loadPage`: the same guard, robots, politeness and credit per page) and
 * compared with the page's baseline (./baseline.ts):
 *
 * - the capture is made still: the monitor's `ignore` selectors hidden, animations and
 *   transitions off, carets transparent, reduced motion, one CSS px a pixel;
 * - a page seen for the first time is captured a second time (unless `learnVolatile` is off, and
 *   not charged): what differs between the two is learnt volatile (./visual.ts, ./text.ts) and kept with
 *   its baseline;
 * - a known page whose capture (its PNG's bytes), text and fields hash as the baseline's is
 *   unchanged without a pixel or text diff (the same bytes are the same pixels); otherwise it is compared visually (outside `ignoreRegions` and the learnt
 *   regions), by its text (without the learnt lines) and by its fields, against the thresholds;
 * - a changed page's before, after and diff images are stored for the plan's retention, and it
 *   becomes the baseline; a page that now answers 404 or 410 is removed; one that fails is failed.
 *
 * What it found goes to the account (./store.ts `pageChecked`) with its webhook events; the crawl
 * gets the page's outcome and links as for any page.
 */
import { MONITOR } from "../../schemas/limits";
import type { CheckPage } from "../../schemas/monitors";
import { accountStub } from "../accounts/directory";
import type { CaptureSpec } from "../capture/capture-spec";
import type { MonitorCheckConfig, CrawlConfig } from "../crawl/config";
import type { PageOutcome } from "../crawl/frontier";
import { loadPage, type PageRenderer } from "../crawl/page-run";
import { sha256Hex, toHex } from "../encoding";
import type { PageFacts, PipelineRun, RequestedOutput } from "../pipeline/pipeline";
import { signedImageUrl, storeOutput } from "../storage/hosted";
import { enqueueWebhooks } from "../webhooks/deliver";
import { type Baseline, readBaseline, writeBaseline } from "./baseline";
import { fieldChanges, type Fields, learnLines, textChange, withoutVolatile } from "./text";
import { learnRegions, visualChange } from "./visual";
import { firedAlerts } from "../watches/alerts";
import type { CheckedPage } from "./checks";

/** What makes two captures of an unchanged page the same picture. */
const STILL_CSS = `*, *::before, *::after {
  animation: none !important;
  transition: none !important;
  caret-color: transparent !important;
}`;

const BUILT_IN_FIELDS = [
  { name: "description", selector: 'meta[name="description" i]', attribute: "content" },
  { name: "canonical", selector: 'link[rel~="canonical" i]', attribute: "href" },
] as const;

/** Every page's fields besides the monitor's own: what an alert rule may also name. */
export const BUILT_IN_FIELD_NAMES: readonly string[] = [
  "title",
  "statusCode",
  ...BUILT_IN_FIELDS.map((f) => f.name),
];

function outputs(check: MonitorCheckConfig): RequestedOutput[] {
  const fields = [...BUILT_IN_FIELDS, ...check.fields];
  return [
    {
      kind: "links",
      visibleOnly: false,
      internalOnly: false,
      includeNonHttp: false,
      billable: false,
    },
    { kind: "text", billable: false },
    {
      kind: "elements",
      elements: fields.map((f) => ({
        selector: f.selector,
        ...(f.attribute !== undefined ? { attributes: [f.attribute] } : {}),
      })),
      billable: false,
    },
    { kind: "image", format: "png" },
  ];
}

function still(check: MonitorCheckConfig) {
  return (spec: CaptureSpec): CaptureSpec => ({
    ...spec,
    viewport: { ...spec.viewport, deviceScaleFactor: 1 },
    hideSelectors: [...spec.hideSelectors, ...check.ignore],
    css: spec.css ? `${spec.css}\n${STILL_CSS}` : STILL_CSS,
    reducedMotion: true,
  });
}

interface Snapshot {
  png: Uint8Array;
  text: string;
  fields: Fields;
  hash: string;
  links: PageOutcome["links"];
  statusCode: number | null;
  finalUrl: string;
  /** How complete the capture was (src/capture/page/complete.ts); null when not measured. */
  completeness: CheckPage["completeness"] | null;
}

/** What one load gave, or null when an output this needs is missing. */
async function snapshot(
  run: PipelineRun & { page: PageFacts },
  check: MonitorCheckConfig,
): Promise<Snapshot | null> {
  let png: Uint8Array | null = null;
  let text = "";
  let links: PageOutcome["links"] = [];
  const fields: Fields = {
    title: run.page.page.title,
    statusCode: run.page.page.targetStatus === null ? null : String(run.page.page.targetStatus),
  };
  const named = [...BUILT_IN_FIELDS, ...check.fields];
  for (const output of run.outputs) {
    if (!output.ok) {
      if (output.kind === "image") return null;
      continue;
    }
    if (output.kind === "image") png = output.result.bytes;
    else if (output.kind === "text") text = output.text;
    else if (output.kind === "links")
      links = output.links.map((l) => ({ url: l.url, nofollow: /\bnofollow\b/i.test(l.rel) }));
    else if (output.kind === "elements")
      output.results.forEach((result, i) => {
        const field = named[i];
        if (!field) return;
        const first = result.matches[0];
        const value = !first
          ? null
          : field.attribute !== undefined
            ? (first.attributes[field.attribute] ?? null)
            : first.text.trim();
        fields[field.name] =
          value === null ? null : [...value].slice(0, MONITOR.fieldValueChars).join("");
      });
  }
  if (png === null) return null;
  const pixels = toHex(await crypto.subtle.digest("SHA-256", png));
  const hash = await sha256Hex(`${pixels}\n${JSON.stringify(fields)}\n${text}`);
  return {
    png,
    text,
    fields,
    hash,
    links,
    statusCode: run.page.page.targetStatus,
    finalUrl: run.page.finalUrl,
    completeness: run.page.completeness,
  };
}

export const renderMonitorPage: PageRenderer = async (env, config, url, engine, cost) => {
  const check = config.monitor;
  if (!check) throw new Error("renderMonitorPage: not a monitor's check");
  const load = () =>
    loadPage(env, config, url, engine, { outputs: outputs(check), tune: still(check) });
  const [loaded, known] = await Promise.all([
    load(),
    readBaseline(env, config.accountId, check.monitorId, url),
  ]);
  if (!loaded.ok) {
    const { outcome } = loaded;
    if (outcome.status === "failed") {
      const statusCode = outcome.result.statusCode;
      const gone = known !== null && (statusCode === 404 || statusCode === 410);
      const body: CheckPage = {
        url,
        status: "failed",
        ...(outcome.reason ? { reason: outcome.reason } : {}),
        ...(statusCode !== undefined ? { statusCode } : {}),
      };
      await report(env, config, { url, status: "failed", body }, gone);
    }
    return outcome;
  }
  const now = await snapshot(loaded.run, check);
  if (now === null)
    return {
      status: "failed",
      reason: "capture_failed",
      result: {},
      links: [],
      r2Keys: [],
      credits: 0,
    };
  const r2Keys: string[] = [];
  const store = async (bytes: Uint8Array) => {
    const stored = await storeOutput(env, {
      bytes,
      contentType: "image/png",
      ttlSeconds: check.retentionDays * 86_400,
      accountId: config.accountId,
      prefix: "monitor",
    });
    r2Keys.push(stored.key);
    return signedImageUrl(env, config.origin, stored);
  };
  const base = (learnt: Pick<Baseline, "regions" | "lines">): Baseline => ({
    url,
    hash: now.hash,
    text: now.text,
    fields: now.fields,
    checkId: check.checkId,
    ...learnt,
  });
  const statusCode = now.statusCode !== null ? { statusCode: now.statusCode } : {};
  const completeness = now.completeness ? { completeness: now.completeness } : {};

  if (known === null) {
    const learnt = check.learnVolatile
      ? await learn(now, await load(), check)
      : { regions: [], lines: [] };
    await writeBaseline(env, config.accountId, check.monitorId, base(learnt), now.png);
    const alerts = firedAlerts(check.alerts ?? [], null, now.fields);
    const body: CheckPage = {
      url,
      status: "new",
      ...statusCode,
      screenshotUrl: await store(now.png),
      ...completeness,
      ...(alerts.length > 0 ? { alerts } : {}),
    };
    await report(env, config, { url, status: "new", body }, false);
  } else {
    const { baseline } = known;
    const page =
      baseline.hash === now.hash ? null : await compare(baseline, now, check, known.png, store);
    if (page === null) {
      const identical = baseline.hash === now.hash;
      const body: CheckPage = { url, status: "unchanged" };
      await report(env, config, { url, status: "unchanged", body, identical }, false);
    } else {
      await writeBaseline(env, config.accountId, check.monitorId, base(baseline), now.png);
      await report(
        env,
        config,
        { url, status: "changed", body: { ...page, ...statusCode, ...completeness } },
        false,
      );
    }
  }
  return {
    status: "rendered",
    reason: null,
    result: { ...statusCode, finalUrl: now.finalUrl },
    links: now.links,
    r2Keys,
    credits: cost,
  };
};

/** The volatile regions and lines between a page's first capture and a second one. */
async function learn(
  first: Snapshot,
  again: Awaited<ReturnType<typeof loadPage>>,
  check: MonitorCheckConfig,
): Promise<Pick<Baseline, "regions" | "lines">> {
  if (!again.ok) return { regions: [], lines: [] };
  const second = await snapshot(again.run, check);
  if (second === null) return { regions: [], lines: [] };
  return {
    regions: learnRegions(first.png, second.png),
    lines: learnLines(first.text, second.text),
  };
}

/** The page against its baseline: the changed page's report, or null when nothing passed a threshold. */
async function compare(
  baseline: Baseline,
  now: Snapshot,
  check: MonitorCheckConfig,
  beforePng: () => Promise<Uint8Array | null>,
  store: (png: Uint8Array) => Promise<string>,
): Promise<CheckPage | null> {
  const masks = [...check.ignoreRegions, ...baseline.regions];
  const page: CheckPage = { url: baseline.url, status: "changed" };
  let changed = false;
  if (check.compare.includes("visual")) {
    const before = await beforePng();
    const visual = before ? visualChange(before, now.png, masks) : null;
    if (
      visual &&
      visual.changedPixels > 0 &&
      visual.changedPixels >= check.minChangedPixels &&
      before
    ) {
      changed = true;
      page.visual = {
        changedPixels: visual.changedPixels,
        changedPercent: visual.changedPercent,
        regions: visual.regions,
        beforeUrl: await store(before),
        afterUrl: await store(now.png),
        diffUrl: await store(visual.diffPng),
      };
    }
  }
  const a = withoutVolatile(baseline.text, baseline.lines);
  const b = withoutVolatile(now.text, baseline.lines);
  if (check.compare.includes("text")) {
    const text = textChange(a.lines, b.lines);
    const words = text.added + text.removed;
    if (words > 0 && words >= check.minChangedWords) {
      changed = true;
      page.text = text;
    }
  }
  if (check.compare.includes("fields")) {
    const fields = fieldChanges(baseline.fields, now.fields);
    if (fields.length > 0) {
      changed = true;
      page.fields = fields;
    }
  }
  // A rule that fires is a change whatever `compare` says: it was asked for by name.
  const alerts = firedAlerts(check.alerts ?? [], baseline.fields, now.fields);
  if (alerts.length > 0) {
    changed = true;
    page.alerts = alerts;
  }
  if (!changed) return null;
  page.masked = { regions: masks, lines: b.left };
  return page;
}

async function report(
  env: Env,
  config: CrawlConfig,
  page: CheckedPage,
  removed: boolean,
): Promise<void> {
  const check = config.monitor;
  if (!check) return;
  const deliveries = await accountStub(env, config.accountId)
    .monitors()
    .pageChecked(check.checkId, page, removed);
  await enqueueWebhooks(env, config.accountId, deliveries);
}
