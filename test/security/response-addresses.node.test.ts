/** Where held responses meet their address reports (src/capture/guard/response-addresses.ts). */
import { describe, expect, it } from "vitest";
import { ResponseAddresses } from "../../src/capture/guard/response-addresses";

const book = () => new ResponseAddresses(() => {});

describe("ResponseAddresses", () => {
  it("a report that comes first is taken at once; one that comes later wakes the taker", async () => {
    const b = book();
    b.expect("1.1");
    b.report("1.1", "Public", "ctx");
    expect(await b.take("1.1", 1000)).toEqual({ space: "Public", contextId: "ctx" });
    b.expect("1.2");
    const later = b.take("1.2", 1000);
    b.report("1.2", "Loopback", "ctx");
    expect(await later).toEqual({ space: "Loopback", contextId: "ctx" });
  });

  it("reports for requests nobody announced are not kept; a taken report is gone", async () => {
    const b = book();
    b.report("2.1", "Public", "ctx");
    expect(await b.take("2.1", 1000)).toBeNull();
    b.expect("2.2");
    b.report("2.2", "Public", undefined);
    await b.take("2.2", 1000);
    expect(await b.take("2.2", 1000)).toBeNull();
  });

  it("a redirect hop forgets the hop before: its own report is awaited", async () => {
    const b = book();
    b.expect("3.1");
    b.report("3.1", "Public", "ctx"); // the first hop's, never taken (a 3xx passes through)
    b.expect("3.1"); // the next hop
    const hop = b.take("3.1", 1000);
    b.report("3.1", "Local", "ctx");
    expect(await hop).toEqual({ space: "Local", contextId: "ctx" });
  });

  it("no report in time is null (the guard fails closed); a dropped request is not awaited", async () => {
    const b = book();
    b.expect("4.1");
    expect(await b.take("4.1", 20)).toBeNull();
    b.expect("4.2");
    b.drop("4.2");
    expect(await b.take("4.2", 60_000)).toBeNull();
  });

  it("announcements are bounded: the oldest is forgotten first", async () => {
    const b = book();
    for (let i = 0; i <= 4096; i++) b.expect(`5.${i}`);
    b.report("5.0", "Public", "ctx");
    b.report("5.4096", "Public", "ctx");
    expect(await b.take("5.0", 10)).toBeNull();
    expect(await b.take("5.4096", 10)).toEqual({ space: "Public", contextId: "ctx" });
  });
});
