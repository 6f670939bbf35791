/**
 * The site monitor tools of the MCP server (docs/MCP.md): `monitor_create`, `monitor_check`,
 * `monitor_changes` and `monitor_list`, each the work of the monitors endpoints
 * (src/monitors/operations.ts: `createMonitor`, `checkNow`, `getMonitor`, `listChecks`,
 * `getCheck`, `checkPages`, `listMonitors`), with its answer shaped for a model
 * (./monitor-views.ts).
 *
 * A check outlives a tool call, as a crawl does: monitor_create and monitor_check answer at once
 * with the ids, and monitor_changes is what the agent calls until the check has completed.
 */
import { MONITOR_TOOLS_VIEW } from "../../../schemas/mcp";
import { monitorCreateSchema } from "../../../schemas/monitors";
import {
  checkNow,
  checkPages,
  createMonitor,
  getCheck,
  getMonitor,
  listChecks,
  listMonitors,
} from "../../monitors/operations";
import { browserEngine } from "../../pipeline/engine";
import { parseWith } from "../body";
import { listing } from "../listing";
import {
  changesHeader,
  checkPageText,
  createdText,
  dryRunText,
  monitorText,
  noCompletedCheckText,
} from "./monitor-views";
import { lines, type Runners, text } from "./tool-kit";

export const MONITOR_RUN: Pick<
  Runners,
  "monitor_create" | "monitor_check" | "monitor_changes" | "monitor_list"
> = {
  async monitor_create(ctx, args) {
    // The endpoint's own schema, whole: its cross-field rules, as POST /v1/monitors checks them.
    const req = parseWith(monitorCreateSchema, args);
    const made = await createMonitor(ctx.env, ctx.auth, req, ctx.origin, browserEngine(ctx.env));
    if (made.kind === "dryRun")
      return { content: [text(dryRunText(made.dryRun))], structuredContent: { ...made.dryRun } };
    return {
      content: [text(createdText(made.monitor))],
      structuredContent: { ...made.monitor },
    };
  },
  async monitor_check(ctx, args) {
    const check = await checkNow(ctx.env, ctx.auth, args.monitorId);
    return {
      content: [
        text(
          lines(
            `Check ${check.checkId} of monitor ${args.monitorId} is ${check.status}: it renders the site's pages and compares each with its baseline.`,
            `Follow it with monitor_changes, monitorId "${args.monitorId}" and checkId "${check.checkId}", every few seconds until its status is completed.`,
            "Each rendered page costs 1 credit; skipped and failed pages cost nothing.",
          ),
        ),
      ],
      structuredContent: { ...check },
    };
  },
  async monitor_changes(ctx, args) {
    const { monitorId } = args;
    const monitor = await getMonitor(ctx.env, ctx.auth, monitorId);
    const check =
      args.checkId !== undefined
        ? await getCheck(ctx.auth, monitorId, args.checkId)
        : (await listChecks(ctx.auth, monitorId, { status: "completed", limit: 1, before: null }))
            .items[0];
    if (check === undefined) {
      const recent = await listChecks(ctx.auth, monitorId, {
        status: null,
        limit: MONITOR_TOOLS_VIEW.checks,
        before: null,
      });
      return {
        content: [text(noCompletedCheckText(monitor, recent.items))],
        structuredContent: { monitorId, check: null, checks: recent.items },
      };
    }
    const { pages, nextCursor } = await checkPages(ctx.auth, monitorId, check.checkId, {
      status: args.status ?? null,
      cursor: args.cursor ?? 0,
      limit: MONITOR_TOOLS_VIEW.pages,
    });
    const cursor = args.cursor === undefined ? undefined : String(args.cursor);
    const where = `/v1/monitors/${monitorId}/checks/${check.checkId}/pages`;
    return {
      content: [
        text(changesHeader(monitor, check, pages.length, { cursor, nextCursor })),
        ...pages.map((page) => text(checkPageText(page, where))),
      ],
      structuredContent: {
        monitorId,
        check,
        nextCursor,
        pages: pages.map(({ url, status, reason, statusCode, visual, screenshotUrl }) => ({
          url,
          status,
          ...(reason === undefined ? {} : { reason }),
          ...(statusCode === undefined ? {} : { statusCode }),
          ...(visual === undefined ? {} : { diffUrl: visual.diffUrl }),
          ...(screenshotUrl === undefined ? {} : { screenshotUrl }),
        })),
      },
    };
  },
  async monitor_list(ctx, args) {
    const page = await listMonitors(ctx.env, ctx.auth, {
      status: args.status ?? null,
      limit: MONITOR_TOOLS_VIEW.monitors,
      before: args.cursor ?? null,
    });
    const { items, nextCursor } = listing("monitor", page);
    return {
      content: [
        text(
          lines(
            items.length === 0
              ? "No monitors in this range."
              : `${items.length} monitor${items.length === 1 ? "" : "s"}, newest first:`,
            nextCursor !== null
              ? `More: call monitor_list with cursor "${nextCursor}".`
              : items.length > 0 && "That is the last monitor.",
          ),
        ),
        ...items.map((monitor) => text(monitorText(monitor))),
      ],
      structuredContent: {
        monitors: items.map(({ settings: _settings, ...summary }) => summary),
        nextCursor,
      },
    };
  },
};
