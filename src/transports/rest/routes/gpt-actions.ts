// ChatGPT GPT Actions: the tool layer over REST (interface "GPT Actions", contract-gaps §8).
// - GET /openapi/chatgpt-actions.json (public): the OpenAPI 3.1.0 document a GPT imports, one POST per tool.
// - POST /unified/gpt-actions/{tool}: the body is the tool's arguments. Transport-level answers: 401 without valid
//   credentials (an API key, a session with X-Workspace-Id, or a chat connector's OAuth access token), 402 when the
//   plan lacks gpt_app_enabled, 422 for a body that fails the tool's schema, 404 for an unknown tool. Everything the
//   tool itself refuses or fails at is HTTP 200 {success: false, message, error}, so the model reads it and adapts.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { AppError } from '../../../errors.ts';
import { invokeTool, resultOf } from '../../../tools/invoke.ts';
import type { Tool, ToolCaller } from '../../../tools/tool.ts';
import { principalOf, type Access } from '../access.ts';
import { errorResponses } from '../openapi.ts';
import { installJsonParser } from '../json-body.ts';
import { GPT_ACTIONS_PREFIX, gptActionsDocument } from '../gpt-actions-document.ts';
import { gptActionTools } from '../gpt-files.ts';

// postsRead: a read-only `linkedin_posts` key passes the transport; every tool applies that rule itself, in band
// (defineTool: only get_user_posts answers such a key).
const access: Access = { kind: 'workspace', feature: 'gpt_app_enabled', planStatus: 402, postsRead: true };
const security: Record<string, string[]>[] = [{ ApiKey: [] }, { Bearer: [] }];

/** A tool's answer on the wire: `success` and whatever the tool returns beside it. */
const toolResultSchema = z.looseObject({ success: z.boolean(), message: z.string().nullable().optional() });
/** The plan refusal of GPT Actions: 402 with the plan_required detail. */
const planRefusal = z.object({
  detail: z.looseObject({
    error: z.literal('plan_required'),
    feature: z.string(),
    plan: z.string(),
    message: z.string(),
  }),
});

export async function gptActionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // upload_media also takes the files a ChatGPT user attaches (gpt-files.ts).
  const tools = gptActionTools(ctx);
  let document: object | undefined;

  app.get(
    '/openapi/chatgpt-actions.json',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['gpt actions'],
        operationId: 'getGptActionsDocument',
        summary: 'The OpenAPI 3.1.0 document of the GPT Actions, to import in the GPT editor',
        responseDescription: 'The GPT Actions document (OpenAPI 3.1.0).',
        description:
          'One POST per tool at /unified/gpt-actions/{operationId}, the request schemas of the tools, BearerAuth (an API key or the OAuth access token ChatGPT obtains). See docs/gpt-actions.md.',
        response: {
          200: z.looseObject({
            openapi: z.literal('3.1.0'),
            info: z.looseObject({ title: z.string(), version: z.string() }),
            servers: z.array(z.looseObject({ url: z.string() })),
            paths: z.record(
              z.string(),
              z.object({
                post: z.looseObject({
                  operationId: z.string(),
                  summary: z.string(),
                  'x-openai-isConsequential': z.boolean(),
                  requestBody: z.unknown().optional(),
                  responses: z.unknown(),
                }),
              }),
            ),
            components: z.looseObject({
              securitySchemes: z.looseObject({ BearerAuth: z.looseObject({ type: z.string(), scheme: z.string() }) }),
              schemas: z.unknown().optional(),
            }),
          }),
        },
      },
    },
    async (_req, reply) => {
      document ??= gptActionsDocument(ctx, tools);
      reply.header('cache-control', 'public, max-age=300');
      return document as never;
    },
  );

  // The actions in their own scope: a JSON body may be empty (a tool without arguments), which is {}.
  await app.register(async (scope) => {
    installJsonParser(scope, { empty: {} });
    scope.addHook('preValidation', async (req) => {
      if (req.body === undefined || req.body === null) req.body = {};
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    for (const tool of tools as Tool[]) {
      r.post(
        `${GPT_ACTIONS_PREFIX}${tool.name}`,
        {
          config: { access },
          schema: {
            // Listed in /openapi/chatgpt-actions.json, its own document; not repeated in the API reference.
            hide: true,
            tags: ['gpt actions'],
            summary: tool.description,
            security,
            body: tool.input,
            response: { 200: toolResultSchema, 402: planRefusal, ...errorResponses(401, 422) },
          },
        },
        async (req) => {
          const principal = principalOf(req);
          const caller: ToolCaller = { principal, surface: 'gpt', oauthGrantId: principal.oauthGrantId ?? null };
          // A refusal or a fault is in band: HTTP 200 with success false (a fault named by the request id only).
          return resultOf(await invokeTool(ctx, tool, req.body, caller, { logger: req.log, ref: req.id }));
        },
      );
    }

    // Any other name: 404 naming the actions there are (after authentication, like every action).
    r.post(
      `${GPT_ACTIONS_PREFIX}:tool`,
      {
        config: { access },
        schema: {
          hide: true,
          tags: ['gpt actions'],
          summary: 'An unknown action',
          security,
          params: z.object({ tool: z.string() }),
          response: { 402: planRefusal, ...errorResponses(401, 404) },
        },
      },
      async (req) => {
        throw new AppError(
          'not_found',
          `No GPT action named '${req.params.tool}'. Actions: ${tools.map((t) => t.name).join(', ')}.`,
        );
      },
    );
  });
}
