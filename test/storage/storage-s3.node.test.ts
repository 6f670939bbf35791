/**
 * The pieces of bucket delivery that need no server: SigV4 signing (aws4fetch) against AWS's
 * published examples, the test server's independent verifier against the same, object URLs
 * (path-style and virtual-host), error classes, key templates.
 */
import { AwsClient } from "aws4fetch";
import { describe, expect, it } from "vitest";
import { expandKey, keyTemplateProblem } from "../../src/storage/destinations";
import { classify, encodeKey, objectUrl } from "../../src/storage/s3";
import { parseAuthorization, verifySigV4 } from "../fixtures/sigv4";

const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/** AWS S3 docs, "Signature Calculations for the Authorization Header", example GET Object. */
const S3_GET_EXAMPLE = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  url: "https://examplebucket.s3.amazonaws.com/test.txt",
  datetime: "20130524T000000Z",
  headers: { range: "bytes=0-9", "x-amz-content-sha256": EMPTY_SHA256 },
  authorization:
    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, " +
    "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, " +
    "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
};

describe("SigV4", () => {
  it("aws4fetch signs AWS's published S3 GET example to the published Authorization header", async () => {
    const e = S3_GET_EXAMPLE;
    const client = new AwsClient({
      accessKeyId: e.accessKeyId,
      secretAccessKey: e.secretAccessKey,
      service: "s3",
      region: "us-east-1",
    });
    const signed = await client.sign(e.url, {
      method: "GET",
      headers: e.headers,
      aws: { datetime: e.datetime, allHeaders: true },
    });
    expect(signed.headers.get("authorization")).toBe(e.authorization);
  });

  it("the test server's verifier accepts the published example and refuses a wrong secret", () => {
    const e = S3_GET_EXAMPLE;
    const auth = parseAuthorization(e.authorization);
    expect(auth).not.toBeNull();
    if (!auth) return;
    const headers = {
      host: "examplebucket.s3.amazonaws.com",
      "x-amz-date": e.datetime,
      ...e.headers,
    };
    expect(verifySigV4("GET", "/test.txt", headers, auth, e.secretAccessKey)).toBe(true);
    expect(verifySigV4("GET", "/test.txt", headers, auth, "not-the-secret")).toBe(false);
    expect(verifySigV4("PUT", "/test.txt", headers, auth, e.secretAccessKey)).toBe(false);
  });
});

describe("object URLs and keys", () => {
  it("path-style and virtual-host style", () => {
    expect(
      objectUrl(
        { endpoint: "https://acc.r2.cloudflarestorage.com", bucket: "shots", pathStyle: true },
        "a/b c.png",
      ),
    ).toBe("https://acc.r2.cloudflarestorage.com/shots/a/b%20c.png");
    expect(
      objectUrl(
        { endpoint: "https://s3.eu-west-1.amazonaws.com/", bucket: "shots", pathStyle: false },
        "x/y.png",
      ),
    ).toBe("https://shots.s3.eu-west-1.amazonaws.com/x/y.png");
    expect(encodeKey("a/(1)!*'.png")).toBe("a/%281%29%21%2A%27.png");
  });

  it("error classes from status and S3 code", () => {
    expect(classify(403, "SignatureDoesNotMatch")).toBe("signature_mismatch");
    expect(classify(403, "InvalidAccessKeyId")).toBe("access_denied");
    expect(classify(403, null)).toBe("access_denied");
    expect(classify(404, "NoSuchBucket")).toBe("no_such_bucket");
    expect(classify(301, null)).toBe("unreachable");
    expect(classify(503, "SlowDown")).toBe("unreachable");
    expect(classify(400, "InvalidStorageClass")).toBe("rejected");
  });

  it("key templates: placeholders expanded, unknown ones and over-long keys refused", () => {
    const now = new Date("2026-03-04T05:06:07Z");
    const values = {
      jobId: "j1",
      batchId: "b1",
      watchId: null,
      host: "example.com",
      ext: "png",
      now,
    };
    expect(expandKey("edgeshot/{date}/{jobId}.{ext}", "p/", values)).toBe(
      "p/edgeshot/2026-03-04/j1.png",
    );
    expect(expandKey("{host}/{batchId}/{time}-{watchId}", null, values)).toBe(
      "example.com/b1/050607-",
    );
    expect(keyTemplateProblem("{date}/{jobId}.{ext}", null)).toBeNull();
    expect(keyTemplateProblem("{nope}", null)).toContain("Unknown placeholder {nope}");
    expect(keyTemplateProblem("a{b", null)).toContain("Braces");
    expect(keyTemplateProblem(`${"x".repeat(1000)}{host}`, null)).toContain("1024");
  });
});
