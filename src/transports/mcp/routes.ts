// The two MCP endpoints in Fastify: POST /mcp (API keys; CLI clients and agents) and POST /web/mcp (OAuth access
// tokens or a key in the query; chat connectors). The body is parsed by Fastify and handed to the SDK's web-standard
// transport with the caller resolved beforehand (auth.ts), so the request keeps Fastify's hooks (request id,
// metrics, rate budget per key). GET and DELETE are 405: a stateless server has no stream to open and no session
// to end (MCP "Streamable HTTP").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import type { Principal } from '../../auth/authenticate.ts';
import { authenticateMcp, type McpAuth, type McpEndpoint } from './auth.ts';
import type { McpToolServer } from './server.ts';

export const MCP_PATHS: Record<McpEndpoint, string> = { cli: '/mcp', web: '/web/mcp' };

const AUTH = Symbol('herald.mcpAuth');
type WithAuth = FastifyRequest & { [AUTH]?: McpAuth };

/** JSON-RPC messages are small; a tool's largest argument (a post's text and overrides) fits well within this. */
const BODY_LIMIT = 1024 * 1024;

export async function mcpRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // The SDK (with Ajv and its schemas, ~0.6 s of CPU and ~60 MB) and the tools' JSON Schemas are made on the first MCP
  // request, not at start-up: most instances never serve one (docs/performance.md).
  let made: Promise<McpToolServer> | undefined;
  const server = () => (made ??= import('./server.ts').then((m) => new m.McpToolServer(ctx)));
  for (const [endpoint, path] of Object.entries(MCP_PATHS) as [McpEndpoint, string][]) {
    const authenticate = async (req: FastifyRequest): Promise<Principal | null> => {
      const auth = await authenticateMcp(ctx, endpoint, req.headers, req.query as Record<string, unknown>);
      (req as WithAuth)[AUTH] = auth;
      return auth.ok ? auth.principal : null;
    };
    app.post(
      path,
      { bodyLimit: BODY_LIMIT, config: { access: { kind: 'mcp', authenticate } }, schema: { hide: true } },
      async (req: FastifyRequest, reply: FastifyReply) => {
        const auth = (req as WithAuth)[AUTH];
        if (!auth) throw new Error('MCP route reached without authentication');
        const url = `${ctx.config.publicUrl}${req.url}`;
        const mcp = await server();
        const res = await mcp.handle({ url, method: 'POST', headers: req.headers, body: req.body }, auth, endpoint);
        reply.code(res.status);
        res.headers.forEach((value, name) => void reply.header(name, value));
        const body = await res.text();
        return reply.send(body === '' ? undefined : body);
      },
    );
    const notAllowed = async (_req: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(405)
        .header('allow', 'POST')
        .send({
          jsonrpc: '2.0',
          error: {
            code: -32000,
            message: 'Method not allowed: this MCP server is stateless; send JSON-RPC messages with POST.',
          },
          id: null,
        });
    app.get(path, { config: { access: { kind: 'public' } }, schema: { hide: true } }, notAllowed);
    app.delete(path, { config: { access: { kind: 'public' } }, schema: { hide: true } }, notAllowed);
  }
}
