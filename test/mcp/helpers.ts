// An MCP client of the official SDK against a test server, as a CLI client or a chat connector would connect.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface McpClient {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Connects (initialize + initialized) to `url` with these extra request headers. */
export async function mcpClient(url: string, headers: Record<string, string> = {}): Promise<McpClient> {
  const client = new Client({ name: 'herald-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a tool result's first content block. */
export const textOf = (r: CallToolResult): string => {
  const c = r.content[0];
  if (c?.type !== 'text') throw new Error(`expected a text block, got ${JSON.stringify(r.content)}`);
  return c.text;
};

/** One raw JSON-RPC POST (what a client sends), for the transport-level cases. */
export async function rpc(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

export const callRequest = (name: string, args: Record<string, unknown> = {}, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
