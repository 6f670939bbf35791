/**
 * From a watch request to what the Account DO stores (docs/WATCHES.md): the target through the
 * same path as a capture (URL guard, plan gates, DNS, reputation) with the watch's capture
 * settings as a PNG and its ignored selectors hidden, the webhook URL (public https), the
 * storage choice, and the per-site key. Also the refusals of the DO as the spec's errors.
 */
import { LIMITS } from "../../schemas/limits";
import type { ChangeDetection, WatchCapture, WatchCreate, WatchPatch } from "../../schemas/watches";
import type { AuthContext } from "../accounts/auth";
import type { NewWatch, WatchChange, WatchRefusal } from "./store/watches";
import { prepareCapture } from "../capture-request/prepare";
import { ApiError, validationError } from "../errors";
import { siteOf } from "../hosts";
import { requireStorage } from "../storage/destinations";
import { requireWebhookUrl } from "../webhooks/url";
import { changeDetectionSchema, retentionSchema } from "../../schemas/watches";

/** Where a watch run's image goes in a storage destination when no key template is given. */
export const WATCH_KEY_TEMPLATE = "edgeshot/watches/{watchId}/{date}/{jobId}.{ext}";

export const DEFAULT_CHANGE_DETECTION: ChangeDetection = changeDetectionSchema.parse({});

/** The run's CaptureSpec (serialized): the capture settings, PNG, ignored selectors hidden. */
async function runSpec(
  env: Env,
  auth: AuthContext,
  url: string,
  capture: WatchCapture,
  changeDetection: ChangeDetection,
): Promise<{ spec: string; url: string }> {
  const hide = [...(capture.hideSelectors ?? []), ...changeDetection.ignoreSelectors];
  if (hide.length > LIMITS.hideSelectors) {
    throw validationError(
      "changeDetection.ignoreSelectors",
      `capture.hideSelectors and changeDetection.ignoreSelectors together may hold at most ${LIMITS.hideSelectors} selectors.`,
    );
  }
  const spec = await prepareCapture(env, auth, {
    ...capture,
    url,
    format: "png",
    ...(hide.length > 0 ? { hideSelectors: hide } : {}),
  });
  if (spec.source.kind !== "url") throw new Error("a watch spec has a url source");
  return { spec: JSON.stringify(spec), url: spec.source.url };
}

export async function prepareWatch(
  env: Env,
  auth: AuthContext,
  body: WatchCreate,
  origin: string,
): Promise<NewWatch> {
  const webhookUrl =
    body.webhookUrl === undefined ? null : await requireWebhookUrl(env, body.webhookUrl);
  const storage =
    body.storage === undefined
      ? null
      : await requireStorage(auth, {
          ...body.storage,
          key: body.storage.key ?? WATCH_KEY_TEMPLATE,
        });
  const capture = body.capture ?? {};
  const changeDetection = body.changeDetection ?? DEFAULT_CHANGE_DETECTION;
  const { spec, url } = await runSpec(env, auth, body.url, capture, changeDetection);
  return {
    id: crypto.randomUUID(),
    name: body.name ?? null,
    url,
    site: siteOf(new URL(url).hostname),
    intervalMinutes: body.intervalMinutes,
    capture,
    spec,
    changeDetection,
    webhookUrl,
    retention: body.retention ?? retentionSchema.parse({}),
    paused: body.paused,
    storage,
    origin,
  };
}

/** A PATCH as the DO applies it: the spec rebuilt (and the target re-checked) when capture settings change. */
export async function prepareChange(
  env: Env,
  auth: AuthContext,
  current: { url: string; capture: WatchCapture; changeDetection: ChangeDetection },
  patch: WatchPatch,
): Promise<WatchChange> {
  const change: WatchChange = {
    paused: patch.paused,
    intervalMinutes: patch.intervalMinutes,
    name: patch.name,
    capture: patch.capture,
    changeDetection: patch.changeDetection,
    retention: patch.retention,
  };
  if (patch.webhookUrl !== undefined) {
    change.webhookUrl =
      patch.webhookUrl === null ? null : await requireWebhookUrl(env, patch.webhookUrl);
  }
  if (
    patch.capture !== undefined ||
    patch.changeDetection !== undefined ||
    patch.paused === false
  ) {
    const { spec } = await runSpec(
      env,
      auth,
      current.url,
      patch.capture ?? current.capture,
      patch.changeDetection ?? current.changeDetection,
    );
    change.spec = spec;
  }
  return change;
}

/** A refusal of the Account DO as the spec's error. */
export function watchRefusal(refusal: WatchRefusal, plan: { name: string }): ApiError {
  switch (refusal.reason) {
    case "not_found":
      return watchNotFound();
    case "limit":
      return new ApiError(
        "WATCH_LIMIT_REACHED",
        `The ${plan.name} plan allows ${refusal.limit} watches (active plus paused). Delete one or upgrade.`,
      );
    case "host":
      return new ApiError(
        "WATCH_HOST_LIMIT_REACHED",
        `At most ${refusal.limit} active watches per website; ${refusal.site} has ${refusal.limit} already.`,
        {
          details: [
            { path: "url", message: `At most ${refusal.limit} active watches on one website.` },
          ],
        },
      );
    case "interval":
      return new ApiError(
        "WATCH_INTERVAL_TOO_FAST",
        `The ${plan.name} plan runs watches at most every ${refusal.floor} minutes.`,
        {
          details: [
            { path: "intervalMinutes", message: `Must be at least ${refusal.floor} on this plan.` },
          ],
        },
      );
  }
}

export function watchNotFound(): ApiError {
  return new ApiError("WATCH_NOT_FOUND", "No watch with this id.");
}
