/**
 * How each MCP client connects to this server: the snippets the dashboard's MCP page shows for
 * the account's server URL (docs/MCP.md explains each). The key stays a placeholder: the
 * dashboard never holds a whole key after it was shown once.
 */
export const KEY_PLACEHOLDER = "YOUR_API_KEY";

export interface ClientSnippet {
  id: string;
  client: string;
  /** Where the snippet goes. */
  where: string;
  text: string;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

export function clientSnippets(serverUrl: string): ClientSnippet[] {
  const bearer = `Bearer ${KEY_PLACEHOLDER}`;
  return [
    {
      id: "claude-code",
      client: "Claude Code",
      where: "a terminal",
      text: `claude mcp add --transport http edgeshot ${serverUrl} \\\n  --header "Authorization: ${bearer}"`,
    },
    {
      id: "claude-desktop",
      client: "Claude Desktop",
      where: "claude_desktop_config.json (through the mcp-remote bridge)",
      text: json({
        mcpServers: {
          edgeshot: {
            command: "npx",
            args: ["-y", "mcp-remote", serverUrl, "--header", "Authorization:${AUTH_HEADER}"],
            env: { AUTH_HEADER: bearer },
          },
        },
      }),
    },
    {
      id: "cursor",
      client: "Cursor",
      where: "~/.cursor/mcp.json",
      text: json({
        mcpServers: { edgeshot: { url: serverUrl, headers: { Authorization: bearer } } },
      }),
    },
    {
      id: "vscode",
      client: "VS Code",
      where: ".vscode/mcp.json (asks for the key once)",
      text: json({
        inputs: [
          {
            type: "promptString",
            id: "edgeshot-key",
            description: "Edgeshot API key",
            password: true,
          },
        ],
        servers: {
          edgeshot: {
            type: "http",
            url: serverUrl,
            headers: { Authorization: "Bearer ${input:edgeshot-key}" },
          },
        },
      }),
    },
    {
      id: "inspector",
      client: "MCP Inspector",
      where: "a terminal (or `npx @modelcontextprotocol/inspector` for its page)",
      text: `npx @modelcontextprotocol/inspector --cli ${serverUrl} \\\n  --transport http --header "Authorization: ${bearer}" --method tools/list`,
    },
  ];
}
