// The MCP server over the tool layer (src/tools/), on the official SDK: streamable HTTP, stateless, JSON responses.
//
// Stateless means every HTTP request is a whole conversation: the SDK wants a fresh transport per request (a reused
// one mixes up clients' request ids), and a protocol object serves one transport at a time. What is expensive is
// built once per app instead: the tool list with its JSON Schemas (from the zod inputs), annotations and titles,
// and the request handlers, which read the caller from the request's `authInfo`, and one JSON Schema validator. Per
// request there is a transport and a server shell from a small pool (no schema work, no handler set-up).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ListToolsResult,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../../app-context.ts';
import { toolsFor } from '../../tools/index.ts';
import { unknownToolText } from '../../tools/errors.ts';
import { inputSchema, invokeTool } from '../../tools/invoke.ts';
import type { Tool } from '../../tools/tool.ts';
import type { McpAuth, McpEndpoint } from './auth.ts';

const SERVER_INFO = { name: 'herald', title: 'Herald', version: '0.1.0' };
const INSTRUCTIONS =
  'Herald publishes to and reads from the social accounts connected to one workspace. Start with get_accounts to see which networks are connected. Tools that post, reply or disconnect act on the real accounts.';

/** "get_accounts" → "Get accounts". */
const titleOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replaceAll('_', ' ');

export function describeTool(tool: Tool): McpTool {
  const a = tool.annotations;
  return {
    name: tool.name,
    title: titleOf(tool.name),
    description: tool.description,
    // Draft 2020-12 is MCP's default dialect.
    inputSchema: inputSchema(tool) as McpTool['inputSchema'],
    annotations: {
      title: titleOf(tool.name),
      readOnlyHint: a.readOnly,
      destructiveHint: a.destructive,
      idempotentHint: a.idempotent,
      openWorldHint: a.openWorld,
    },
  };
}

const text = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/** What a request hands to the handlers (through the transport's `authInfo`). */
interface CallerInfo {
  auth: McpAuth;
  endpoint: McpEndpoint;
}

const callerOf = (authInfo: AuthInfo | undefined): CallerInfo => {
  const info = authInfo?.extra?.herald as CallerInfo | undefined;
  if (!info) throw new Error('MCP request without its caller');
  return info;
};

/** A header of the original request the transport reads (content negotiation and the protocol version). */
const PASSED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'] as const;

export interface McpRequest {
  url: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export class McpToolServer {
  readonly #app: AppContext;
  readonly #tools: Map<string, Tool>;
  readonly #list: ListToolsResult;
  readonly #idle: Server[] = [];
  /**
   * One JSON Schema validator for every shell (a server builds an Ajv instance of its own otherwise: most of its cost).
   */
  readonly #validator = new AjvJsonSchemaValidator();
  /** Idle server shells kept for reuse; more are made under load and dropped past this. */
  static readonly POOL = 64;

  constructor(app: AppContext) {
    this.#app = app;
    const tools = toolsFor('mcp', app);
    this.#tools = new Map(tools.map((t) => [t.name, t]));
    this.#list = { tools: tools.map(describeTool) };
  }

  get tools(): readonly McpTool[] {
    return this.#list.tools;
  }

  #server(): Server {
    const pooled = this.#idle.pop();
    if (pooled) return pooled;
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: this.#validator,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => this.#list);
    server.setRequestHandler(CallToolRequestSchema, (req, extra) =>
      this.#call(req.params.name, req.params.arguments, callerOf(extra.authInfo)),
    );
    return server;
  }

  async #call(name: string, args: Record<string, unknown> | undefined, { auth }: CallerInfo): Promise<CallToolResult> {
    const tool = this.#tools.get(name);
    // An unknown tool is a protocol error (MCP "Error Handling"), not a tool result.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, unknownToolText(name));
    if (!auth.ok) return text(auth.message);
    const { principal, oauthGrantId } = auth;
    const call = await invokeTool(
      this.#app,
      tool,
      args,
      { principal, surface: 'mcp', oauthGrantId },
      { requires: 'mcp_enabled' },
    );
    // A refusal is the text of an error result; what the tool answered is its JSON, structured too.
    if (!call.ok) return text(call.failure.message);
    const result = call.result;
    return {
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: result,
      isError: result.success === false,
    };
  }

  /** One HTTP request (POST) through a fresh stateless transport; the SDK's answer as a web Response. */
  async handle(req: McpRequest, auth: McpAuth, endpoint: McpEndpoint): Promise<Response> {
    const headers = new Headers();
    for (const name of PASSED_HEADERS) {
      const v = req.headers[name];
      if (v !== undefined) headers.set(name, Array.isArray(v) ? v.join(', ') : v);
    }
    const request = new Request(req.url, { method: req.method, headers });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = this.#server();
    await server.connect(transport);
    const caller: CallerInfo = { auth, endpoint };
    const authInfo: AuthInfo = {
      token: '',
      clientId: auth.ok ? (auth.principal.keyId ?? auth.principal.user?.id ?? '') : '',
      scopes: [],
      extra: { herald: caller },
    };
    try {
      return await transport.handleRequest(request, { parsedBody: req.body, authInfo });
    } finally {
      // Closed off the response's path, once the protocol has finished with the request (its clean-up runs in the
      // same turn as the answer), so closing has nothing in flight to abort; then the shell serves the next request.
      setImmediate(() => void this.#release(server, transport));
    }
  }

  async #release(server: Server, transport: WebStandardStreamableHTTPServerTransport): Promise<void> {
    await transport.close();
    if (this.#idle.length < McpToolServer.POOL) this.#idle.push(server);
  }
}
