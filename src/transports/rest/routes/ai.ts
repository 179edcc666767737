// The AI routes (never publish): copy from an idea (also streamed), images from copy, copy from an image
// or a video. Each names its workspace in the query (workspace_id), matched against the caller's.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import type { Principal } from '../../../auth/authenticate.ts';
import { aiTargets, assertSourceGiven, imageTargets } from '../../../ai/targets.ts';
import { AppError } from '../../../errors.ts';
import { principalOf } from '../access.ts';
import { errorResponses, workspaceSecurity } from '../schemas.ts';

const query = z.object({
  workspace_id: z
    .string()
    .optional()
    .describe(
      "The workspace's UUID: must be the caller's. Optional: without it, the API key's workspace (or X-Workspace-Id's, with a session) is meant",
    ),
});
const text = (max: number) => z.string().max(max).nullish();
const list = z.array(z.string().max(40)).max(20).nullish();
const byPlatform = z.record(z.string().max(40), z.string().max(20_000)).nullish();

const copyBody = z.object({
  idea: text(20_000),
  platforms: list.describe('Networks, or ["all"]'),
  idea_by_platform: byPlatform,
  user_requirements: text(4000),
  page_id: text(200),
  target_platforms: list.describe('Narrows "all"'),
});
const imageBody = z.object({
  content: text(20_000),
  platforms: list.describe('Networks (and twitter / x), or ["all"]'),
  content_by_platform: byPlatform,
  user_requirements: text(4000),
  page_id: text(200),
});
const mediaBody = (field: 'image_url' | 'video_url') =>
  z.object({
    [field]: z.string().max(4000).nullish(),
    platform: z.string().max(40).nullish().describe('One network, or "all"'),
    user_requirements: text(4000),
    page_id: text(200),
    target_platforms: list,
  });

const perNetwork = <T extends z.ZodObject>(ok: T) =>
  z.record(z.string(), z.union([ok, z.object({ error: z.string() })]));
const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), message: z.string(), data, error: z.string().nullable() });
const copyResult = z.object({ content: z.string() });
const imageResult = z.object({ image_url: z.string(), media_id: z.uuid(), image_prompt: z.string() });

/** Up to this size a generator's body is read (ideas are text). */
const AI_BODY_LIMIT = 256 * 1024;

export async function aiRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const slugs = ctx.platforms.networks.map((n) => n.slug as string);
  /**
   * The networks a body names explicitly (not "all", not X), checked against the key's scope before the handler runs.
   */
  const named = (field: string) => (req: FastifyRequest) => {
    const v = ((req.body ?? {}) as Record<string, unknown>)[field];
    const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
    return list
      .filter((s): s is string => typeof s === 'string')
      .map((s) => s.toLowerCase())
      .filter((s) => slugs.includes(s));
  };
  const accessFor = (field: string) => ({
    kind: 'workspace' as const,
    feature: 'ai_composer_enabled' as const,
    workspaceQuery: true,
    platforms: named(field),
  });

  /**
   * The networks a request names (src/ai/targets.ts); a network outside the key's scope named explicitly is 403 (access
   * hook).
   */
  const targets = (
    p: Principal,
    named: readonly string[] | null | undefined,
    narrow: readonly string[] | null | undefined,
    known: readonly string[],
    extra: Readonly<Record<string, string>> = {},
  ) => aiTargets(p.scope, slugs, named, narrow, known, extra);

  const common = (
    operationId: string,
    summary: string,
    body: z.ZodType,
    data: z.ZodType,
    field: string,
    description?: string,
  ) => ({
    config: { access: accessFor(field) },
    bodyLimit: AI_BODY_LIMIT,
    schema: {
      tags: ['ai'],
      operationId,
      summary,
      responseDescription: 'The generated content per network, and any network that failed.',
      ...(description ? { description } : {}),
      security: workspaceSecurity,
      querystring: query,
      body,
      response: { 200: envelope(data), ...errorResponses(402, 502) },
    },
  });

  function copyRequest(req: FastifyRequest) {
    const p = principalOf(req);
    const b = (req.body ?? {}) as z.infer<typeof copyBody>;
    const platforms = targets(p, b.platforms, b.target_platforms, slugs);
    assertSourceGiven('idea', platforms, b.idea, b.idea_by_platform);
    return {
      p,
      req: {
        idea: b.idea ?? undefined,
        ideaByPlatform: b.idea_by_platform ?? undefined,
        platforms,
        userRequirements: b.user_requirements ?? undefined,
      },
    };
  }

  r.post(
    '/unified/content/generate',
    common(
      'generateContent',
      'Copy per network from an idea (never publishes)',
      copyBody,
      perNetwork(copyResult),
      'platforms',
    ),
    async (req) => {
      const { p, req: input } = copyRequest(req);
      const out = await ctx.ai.copy(p, input);
      return { success: true, message: out.message, data: out.data, error: null };
    },
  );

  r.post(
    '/unified/content/generate/stream',
    {
      config: { access: accessFor('platforms') },
      bodyLimit: AI_BODY_LIMIT,
      schema: {
        tags: ['ai'],
        operationId: 'generateContentStream',
        summary: 'The same copy, streamed as server-sent events',
        description:
          "Beyond the interface. Events: `delta` {platform, text} as copy arrives; `done` {platform, content} with the final copy (within the network's limit); `error` {platform, error}; last `end` {success, message}.",
        security: workspaceSecurity,
        querystring: query,
        body: copyBody,
        response: { 200: z.string().describe('text/event-stream: the events above'), ...errorResponses(402) },
      },
    },
    async (req, reply) => {
      const { p, req: input } = copyRequest(req);
      const events = ctx.ai.copyStream(p, input);
      // Credits are reserved (or 402 answered) before the first byte is sent.
      const first = await events.next();
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      let r = first;
      try {
        while (!r.done) {
          const { type, ...rest } = r.value;
          send(type, rest);
          r = await events.next();
        }
        send('end', { success: r.value.failed < input.platforms.length, message: r.value.message });
      } catch (err) {
        req.log.error({ err }, 'AI stream failed');
        send('end', { success: false, message: 'The generation stopped unexpectedly.' });
      }
      res.end();
    },
  );

  r.post(
    '/unified/image/generate',
    common(
      'generateImages',
      'An image per network from copy, stored as workspace media (never publishes)',
      imageBody,
      perNetwork(imageResult),
      'platforms',
    ),
    async (req) => {
      const p = principalOf(req);
      const b = (req.body ?? {}) as z.infer<typeof imageBody>;
      const platforms = imageTargets(p.scope, ctx.platforms.networks, b.platforms);
      assertSourceGiven('content', platforms, b.content, b.content_by_platform);
      const out = await ctx.ai.images(p, {
        content: b.content ?? undefined,
        contentByPlatform: b.content_by_platform ?? undefined,
        targets: platforms,
        userRequirements: b.user_requirements ?? undefined,
      });
      return { success: true, message: out.message, data: out.data, error: null };
    },
  );

  for (const [kind, field, path] of [
    ['image', 'image_url', '/unified/image-to-content/generate'],
    ['video', 'video_url', '/unified/video-to-content/generate'],
  ] as const) {
    r.post(
      path,
      common(
        kind === 'image' ? 'generateContentFromImage' : 'generateContentFromVideo',
        `Copy from ${kind === 'image' ? 'an image' : 'a video'} (never publishes)`,
        mediaBody(field),
        z.union([copyResult, perNetwork(copyResult)]),
        'platform',
        'One network: data is {content}. "all" (or several target_platforms): data has one {content} or {error} per network.',
      ),
      async (req) => {
        const p = principalOf(req);
        const b = (req.body ?? {}) as Record<string, string | string[] | null | undefined>;
        const url = b[field];
        if (typeof url !== 'string' || !url.trim()) throw new AppError('bad_request', `${field} is required.`);
        if (typeof b.platform !== 'string' || !b.platform.trim())
          throw new AppError('bad_request', 'platform is required: one network, or all.');
        const platforms = targets(p, [b.platform], b.target_platforms as string[] | undefined, slugs);
        const single = b.platform.toLowerCase() !== 'all' && platforms.length === 1;
        const out = await ctx.ai.copyFromMedia(p, {
          url: url.trim(),
          kind,
          platforms,
          userRequirements: (b.user_requirements as string | undefined) ?? undefined,
          loc: ['body', field],
        });
        const data = single ? (out.data[platforms[0]!] as { content: string }) : out.data;
        return { success: true, message: out.message, data, error: null };
      },
    );
  }
}
