/**
 * Structured logs: one JSON object per line, `level` and `msg` first. The one place that decides
 * the shape (what Workers Logs and `wrangler tail` index); nothing else writes to the console.
 * Never put a customer's secrets (keys, cookies, header values, full URLs with queries) in `fields`.
 */
export type LogLevel = "info" | "warn" | "error";

export function log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, msg, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
