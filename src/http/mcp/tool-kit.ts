/**
 * What every MCP tool's runner shares (./tools.ts, ./crawl-tools.ts): the context a call runs
 * with, the runners' type, and the small helpers that shape text for a model.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpToolInput, McpToolName } from "../../../schemas/mcp";
import type { Usage } from "../../../schemas/responses";
import type { AuthContext } from "../../accounts/auth";

/** What a tool call runs with: the authenticated caller of the POST /mcp that carries it. */
export interface ToolContext {
  env: Env;
  auth: AuthContext;
  /** The public origin hosted outputs and render links are signed for. */
  origin: string;
  requestId: string;
}

export const text = (value: string) => ({ type: "text" as const, text: value });

export function usageLine(usage: Usage | undefined): string {
  if (!usage) return "";
  const left = usage.remaining === null ? "unlimited" : `${usage.remaining} left this month`;
  return `Credits: ${usage.credits} spent (${left}).`;
}

export const lines = (...parts: (string | false | null | undefined)[]) =>
  parts.filter((p): p is string => typeof p === "string" && p !== "").join("\n");

/** A runner per tool of the catalogue (schemas/mcp.ts `MCP_TOOLS`). */
export type Runners = {
  [N in McpToolName]: (ctx: ToolContext, args: McpToolInput<N>) => Promise<CallToolResult>;
};
