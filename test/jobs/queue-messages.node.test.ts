/** The capture-jobs queue's messages: tagged by kind, and untagged ones from before kinds. */
import { describe, expect, it } from "vitest";
import { readCaptureMessage } from "../../src/queues/capture-message";

const accountId = crypto.randomUUID();
const jobId = crypto.randomUUID();
const watchId = crypto.randomUUID();

describe("capture-jobs messages", () => {
  it("reads each kind as sent", () => {
    const job = { kind: "capture-job", accountId, jobId };
    const run = { kind: "watch-run", accountId, jobId, watchId };
    const page = { kind: "crawl-page", accountId, crawlId: jobId, seq: 3, lease: watchId };
    expect(readCaptureMessage(job)).toEqual(job);
    expect(readCaptureMessage(run)).toEqual(run);
    expect(readCaptureMessage(page)).toEqual(page);
  });

  it("reads a message queued before kinds as the job its fields name", () => {
    expect(readCaptureMessage({ accountId, jobId })).toEqual({
      kind: "capture-job",
      accountId,
      jobId,
    });
    expect(readCaptureMessage({ accountId, jobId, watchId })).toEqual({
      kind: "watch-run",
      accountId,
      jobId,
      watchId,
    });
  });

  it("refuses an unknown kind, a kind with another kind's fields, and extra fields", () => {
    expect(readCaptureMessage({ kind: "render", accountId, jobId })).toBeNull();
    expect(readCaptureMessage({ kind: "capture-job", accountId, jobId, watchId })).toBeNull();
    expect(readCaptureMessage({ kind: "watch-run", accountId, jobId })).toBeNull();
    expect(readCaptureMessage({ accountId, jobId, extra: 1 })).toBeNull();
    expect(readCaptureMessage("x")).toBeNull();
  });
});
