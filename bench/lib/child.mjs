// What every bench child process (fixture server, crawl site, CDP proxy) does once it serves:
// stop on SIGTERM/SIGINT, and stop on its own when the bench that started it died without
// killing it (its parent changed), so a crashed run leaves no server behind.

/** Exit on stop signals and when orphaned; checked every 2 s, without keeping the process alive. */
export function exitWithParent() {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.exit(0);
  }, 2000).unref();
  process.on("SIGTERM", () => process.exit(0));
  process.on("SIGINT", () => process.exit(0));
}
