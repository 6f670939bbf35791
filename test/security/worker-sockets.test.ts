/**
 * Class A2 (issue 13): WebSockets (and WebSocketStream, WebTransport, wss:) from workers —
 * dedicated and shared, blob: and data: scripts, module workers, nested workers, workers in a
 * srcdoc frame. The per-frame hardening covers window contexts only, and interception does not
 * see WebSocket handshakes: the canary logs handshakes (`upgrade: websocket`), the raw canary
 * counts TLS and QUIC attempts it cannot parse.
 */
import { beforeAll } from "vitest";
import { Capturer } from "../helpers/capture";
import { describeVectors } from "./run";
import { VECTORS } from "./vectors";

let cap: Capturer;
beforeAll(async () => {
  cap = await Capturer.create("pro");
});

describeVectors(
  "sockets from workers (class A)",
  () => cap,
  VECTORS.filter((v) => v.group === "worker-socket"),
  7,
);
