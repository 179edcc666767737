// The OpenAPI 3.1.0 document of the GPT Actions (GET /openapi/chatgpt-actions.json): what a Custom GPT imports.
// One POST per tool the GPT surface lists, operationId = the tool's name, the request body from the tool's zod
// schema, BearerAuth, and ChatGPT's extensions: `x-openai-action-timeout: 120` and `x-openai-isConsequential`
// (false on read-only tools, so the user can "Always allow" them; true on the rest, so ChatGPT asks each time).
// Within ChatGPT's limits: at most 30 operations, summaries and descriptions of at most 300 characters,
// parameter descriptions of at most 700, flat JSON bodies (a tool's arguments are strings, numbers, booleans and
// lists of those; structured input such as publish's overrides travels as a JSON string).
import type { AppContext } from '../../app-context.ts';
import { inputSchema } from '../../tools/invoke.ts';
import type { Tool } from '../../tools/tool.ts';
import { OPENAI_FILE_REFS, OPENAI_FILE_REFS_SCHEMA } from './gpt-files.ts';

export const GPT_ACTIONS_PREFIX = '/unified/gpt-actions/';
export const GPT_ACTION_TIMEOUT_SECONDS = 120;
export const GPT_LIMITS = { operations: 30, description: 300, parameterDescription: 700 } as const;

type Json = Record<string, unknown>;

/**
 * A tool's arguments as JSON Schema 2020-12 (what OpenAPI 3.1 uses), as the caller sends them. The shared schema is
 * frozen (every surface reads it), so ChatGPT's file parameter is declared on a copy, as OpenAI documents it (an array
 * of strings), whatever Herald accepts.
 */
export function argumentsSchema(tool: Tool): Readonly<Json> {
  const shared = inputSchema(tool);
  const props = shared.properties as Json | undefined;
  if (!props?.[OPENAI_FILE_REFS]) return shared;
  return { ...shared, properties: { ...props, [OPENAI_FILE_REFS]: { ...OPENAI_FILE_REFS_SCHEMA } } };
}

/** The first sentence of a description, for the operation's summary (a short line in the GPT editor). */
function summaryOf(description: string): string {
  const first = /^(.+?[.!?])(\s|$)/.exec(description)?.[1] ?? description;
  return first.length <= GPT_LIMITS.description ? first : `${first.slice(0, GPT_LIMITS.description - 1)}…`;
}

const error = (description: string, detail: Json): Json => ({
  description,
  content: { 'application/json': { schema: { type: 'object', properties: { detail }, required: ['detail'] } } },
});

export function gptActionsDocument(ctx: AppContext, tools: readonly Tool[]): Json {
  if (tools.length > GPT_LIMITS.operations)
    throw new Error(`GPT Actions: ${tools.length} tools, ChatGPT takes at most ${GPT_LIMITS.operations} operations`);
  const paths: Json = {};
  for (const tool of tools) {
    const schema = argumentsSchema(tool);
    const required = Array.isArray(schema.required) && schema.required.length > 0;
    paths[`${GPT_ACTIONS_PREFIX}${tool.name}`] = {
      post: {
        operationId: tool.name,
        summary: summaryOf(tool.description),
        description: tool.description,
        'x-openai-isConsequential': !tool.annotations.readOnly,
        'x-openai-action-timeout': GPT_ACTION_TIMEOUT_SECONDS,
        requestBody: { required, content: { 'application/json': { schema } } },
        responses: {
          '200': {
            description: 'The result. A tool that failed answers success: false with a message to act on.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ToolResult' } } },
          },
          '401': { $ref: '#/components/responses/Unauthorized' },
          '402': { $ref: '#/components/responses/PlanRequired' },
          '422': { $ref: '#/components/responses/InvalidArguments' },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Herald',
      version: '1.0.0',
      description:
        'Publish to social networks, read posts, analytics and comments, and generate content, in one Herald workspace. ' +
        'Every action answers HTTP 200 with success true or false; on false, read message and fix the arguments or tell the user.',
      license: { name: 'AGPL-3.0-only', identifier: 'AGPL-3.0-only' },
    },
    servers: [{ url: ctx.config.publicUrl, description: 'This Herald instance' }],
    security: [{ BearerAuth: [] }],
    'x-openai-action-timeout': GPT_ACTION_TIMEOUT_SECONDS,
    paths,
    components: {
      securitySchemes: {
        BearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The OAuth access token ChatGPT obtains when the user connects Herald, or a workspace API key (psk_live_…).',
        },
      },
      schemas: {
        ToolResult: {
          type: 'object',
          description:
            'success, and on failure a message (and error code) to act on; the other fields depend on the action.',
          properties: {
            success: { type: 'boolean' },
            message: { type: ['string', 'null'] },
            error: {
              type: 'string',
              description:
                'On failure: a code such as not_found, bad_request, scope_denied, plan_required, insufficient_credits.',
            },
          },
          required: ['success'],
          additionalProperties: true,
        },
      },
      responses: {
        Unauthorized: error('Missing, invalid, expired or revoked credentials: reconnect Herald.', { type: 'string' }),
        PlanRequired: error("The workspace's plan does not include ChatGPT Actions (gpt_app_enabled).", {
          type: 'object',
          properties: {
            error: { type: 'string' },
            feature: { type: 'string' },
            plan: { type: 'string' },
            message: { type: 'string' },
          },
        }),
        InvalidArguments: error('The arguments do not match the schema: one entry per field.', {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              loc: { type: 'array', items: { type: ['string', 'integer'] } },
              msg: { type: 'string' },
              type: { type: 'string' },
            },
          },
        }),
      },
    },
  };
}
