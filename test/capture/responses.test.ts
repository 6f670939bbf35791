/**
 * The response contract (schemas/responses.ts) against what the service really answers: every
 * body below must parse with its schema, so a handler cannot drift from the documented shape.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  accountSchema,
  batchListingSchema,
  captureJsonSchema,
  credentialCheckSchema,
  errorEnvelopeSchema,
  extractionSchema,
  healthSchema,
  hostedCaptureSchema,
  jobAcceptedSchema,
  jobListingSchema,
  jobSchema,
  renderLinkSchema,
  serviceIndexSchema,
  successEnvelope,
} from "../../schemas/responses";
import { bearer, createAccount } from "../helpers/accounts";
import { SMALL_CAPTURE as base } from "../helpers/capture";
import { call, FIXTURES, postJson, runId } from "../helpers/http";

async function parsed<S extends z.ZodType>(res: Response, schema: S): Promise<z.output<S>> {
  const body: unknown = await res.json();
  const result = schema.safeParse(body);
  if (!result.success)
    throw new Error(`${res.url} ${res.status}: ${result.error.message}\n${JSON.stringify(body)}`);
  return result.data;
}

const page = () => `${FIXTURES}/boxes.html?run=${runId()}`;

describe("responses match schemas/responses.ts", () => {
  it("service routes and the error envelope", async () => {
    await parsed(await call("/health"), healthSchema);
    await parsed(await call("/"), serviceIndexSchema);
    const missing = await parsed(await call("/v1/nope"), errorEnvelopeSchema);
    expect(missing.error.code).toBe("NOT_FOUND");
  });

  it("account, credential check, listings, render link, async job", async () => {
    const account = await createAccount("pro");
    const auth = bearer(account.apiKey);
    await parsed(await call("/v1/account", { headers: auth }), successEnvelope(accountSchema));
    await parsed(
      await call("/v1/credential-check", { headers: auth }),
      successEnvelope(credentialCheckSchema),
    );
    await parsed(
      await postJson("/v1/render/link", { url: page() }, auth),
      successEnvelope(renderLinkSchema),
    );
    const accepted = await parsed(
      await postJson("/v1/screenshot/json", { ...base, url: page(), async: true }, auth),
      successEnvelope(jobAcceptedSchema),
    );
    await parsed(
      await call(`/v1/jobs/${accepted.data.jobId}`, { headers: auth }),
      successEnvelope(jobSchema),
    );
    const jobs = await parsed(
      await call("/v1/jobs", { headers: auth }),
      successEnvelope(jobListingSchema),
    );
    expect(jobs.data.items.length).toBeGreaterThan(0);
    await parsed(await call("/v1/batches", { headers: auth }), successEnvelope(batchListingSchema));
  });

  it("captures: JSON with extraction, hosted, and extraction alone", async () => {
    const account = await createAccount("pro");
    const auth = bearer(account.apiKey);
    const json = await parsed(
      await postJson("/v1/screenshot/json", { ...base, url: page(), extract: true }, auth),
      successEnvelope(captureJsonSchema),
    );
    expect(
      json.data.extracted === null ? json.data.extractionError?.code : json.data.extracted?.format,
    ).toBeDefined();
    await parsed(
      await postJson("/v1/screenshot", { ...base, url: page(), hosted: true }, auth),
      successEnvelope(hostedCaptureSchema),
    );
    const article = `${FIXTURES}/extract-article.html?run=${runId()}`;
    await parsed(
      await postJson("/v1/extract", { url: article, waitUntil: "load" }, auth),
      successEnvelope(extractionSchema),
    );
  });
});
