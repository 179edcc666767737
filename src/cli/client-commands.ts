// The command line as a client of a running Herald, for people who script: `herald post`, `herald posts`,
// `herald connections`. They talk to HERALD_URL (default http://localhost:8080) with HERALD_API_KEY through the same
// typed client the web app uses (openapi-fetch over the types generated from Herald's own OpenAPI document), so they
// open no database and need no server configuration.
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import createClient from 'openapi-fetch';
import type { paths } from '../../web/src/api/schema.d.ts';
import { CommandFailure, UsageError } from './errors.ts';

type Client = ReturnType<typeof createClient<paths>>;

export interface ClientEnv {
  HERALD_URL?: string | undefined;
  HERALD_API_KEY?: string | undefined;
}

export function apiClient(env: ClientEnv = process.env): Client {
  const key = env.HERALD_API_KEY;
  if (!key) throw new UsageError('set HERALD_API_KEY to an API key of the workspace (and HERALD_URL to the server)');
  const baseUrl = (env.HERALD_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
  return createClient<paths>({ baseUrl, headers: { 'x-api-key': key } });
}

/** The API's `detail` of a failed answer, as one line. */
function problem(error: unknown, status: number): string {
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  const text = typeof detail === 'string' ? detail : detail !== undefined ? JSON.stringify(detail) : `HTTP ${status}`;
  return `herald: the server answered ${status}: ${text}`;
}

function must<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.data === undefined || r.error !== undefined) throw new CommandFailure(problem(r.error, r.response.status));
  return r.data;
}

async function upload(client: Client, file: string, mediaType: 'image' | 'video'): Promise<string> {
  const form = new FormData();
  form.set('media_type', mediaType);
  form.set('media', await openAsBlob(file), basename(file));
  const r = await client.POST('/media/upload', { body: form as never, bodySerializer: (b) => b as FormData });
  const record = must(r) as { media_id?: string };
  if (!record.media_id) throw new CommandFailure('herald: the upload answered without a media id');
  return record.media_id;
}

export interface PostOptions {
  to: string;
  image?: string;
  video?: string;
  at?: string;
  queue?: string;
  draft?: boolean;
  json?: boolean;
}

interface Outcome {
  platform: string;
  success: boolean;
  message?: string;
  post?: { post_id?: string; permalink?: string | null };
  error?: unknown;
}

export async function post(text: string, o: PostOptions, env: ClientEnv = process.env): Promise<number> {
  if (o.image && o.video) throw new UsageError('give --image or --video, not both');
  if ([o.at, o.queue, o.draft].filter(Boolean).length > 1) throw new UsageError('give one of --at, --queue, --draft');
  const platforms = o.to.split(/[\s,]+/).filter(Boolean);
  if (!platforms.length) throw new UsageError('--to needs at least one network, e.g. --to linkedin,bluesky');
  let scheduled: string | undefined;
  if (o.at) {
    const when = new Date(o.at);
    if (Number.isNaN(when.getTime())) throw new UsageError(`--at ${o.at}: not a date and time (ISO 8601)`);
    scheduled = when.toISOString();
  }
  const client = apiClient(env);
  const body: Record<string, unknown> = {
    platforms,
    default_text: text,
    ...(scheduled ? { scheduled_time: scheduled } : {}),
    ...(o.draft ? { draft: true } : {}),
  };
  let answer: unknown;
  if (o.queue) {
    // The queue picks the time: the body of a scheduled post with its post type, no scheduled_time.
    const media = o.image
      ? { default_image_id: await upload(client, o.image, 'image') }
      : o.video
        ? { video_id: await upload(client, o.video, 'video') }
        : {};
    const postType = o.image ? 'image' : o.video ? 'video' : 'text';
    const queued = must(
      await client.POST('/unified/queue/{queue}/posts', {
        params: { path: { queue: o.queue } },
        body: { ...body, ...media, post_type: postType } as never,
      }),
    );
    if (o.json) console.log(JSON.stringify(queued));
    else
      for (const e of queued.scheduled)
        console.log(`${e.platform}\tqueued\t${queued.queue.slot_time_local} (${queued.queue.name})`);
    return 0;
  }
  if (o.image) {
    body.default_image_id = await upload(client, o.image, 'image');
    answer = must(await client.POST('/unified/post/image', { body: body as never }));
  } else if (o.video) {
    body.video_id = await upload(client, o.video, 'video');
    answer = must(await client.POST('/unified/post/video', { body: body as never }));
  } else {
    answer = must(await client.POST('/unified/post/text', { body: body as never }));
  }
  if (o.json) {
    console.log(JSON.stringify(answer));
  }
  const a = answer as {
    success?: boolean;
    message?: string;
    post?: Outcome['post'] & { platform?: string };
    results?: Outcome[];
    drafts?: { platform: string; draft_id: string; status: string }[];
  };
  const single: Outcome[] = a.post
    ? [
        {
          platform: a.post.platform ?? platforms[0]!,
          success: a.success !== false,
          post: a.post,
          ...(a.message ? { message: a.message } : {}),
        },
      ]
    : [];
  const outcomes: Outcome[] = a.results ?? single;
  if (!o.json) {
    for (const d of a.drafts ?? []) console.log(`${d.platform}\tdraft\t${d.draft_id}`);
    for (const r of outcomes) {
      const state = r.success ? (scheduled ? 'scheduled' : 'published') : 'failed';
      const where = r.success ? (r.post?.permalink ?? r.post?.post_id ?? r.message ?? '') : (r.message ?? '');
      console.log(`${r.platform}\t${state}\t${where}`);
    }
    if (!outcomes.length && !a.drafts?.length && a.message) console.log(a.message);
  }
  return outcomes.some((r) => !r.success) || a.success === false ? 1 : 0;
}

export async function posts(
  o: { status?: string; limit?: string; json?: boolean },
  env: ClientEnv = process.env,
): Promise<number> {
  const limit = o.limit ? Number(o.limit) : 50;
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit ${o.limit}: a whole number from 1`);
  const statuses = ['scheduled', 'publishing', 'published', 'failed', 'cancelled'] as const;
  const status = o.status as (typeof statuses)[number] | undefined;
  if (status && !statuses.includes(status)) throw new UsageError(`--status: one of ${statuses.join(', ')}`);
  const client = apiClient(env);
  const answer = must(
    await client.GET('/unified/scheduled-posts', { params: { query: { limit, ...(status ? { status } : {}) } } }),
  );
  const rows = answer.data?.scheduled_posts ?? [];
  if (o.json) console.log(JSON.stringify(rows));
  else
    for (const p of rows) {
      const text = String(p.post_data.default_text ?? '')
        .replace(/\s+/g, ' ')
        .slice(0, 60);
      const where = p.published_post_url ?? p.error_message ?? '';
      console.log([p.scheduled_post_id, p.platform, p.status, p.scheduled_time, text, where].join('\t'));
    }
  return 0;
}

export async function connections(o: { json?: boolean }, env: ClientEnv = process.env): Promise<number> {
  const client = apiClient(env);
  const data = must(await client.GET('/unified/oauth/token', {})) as {
    results: Record<string, { success: boolean; message?: string }>;
  };
  if (o.json) console.log(JSON.stringify(data.results));
  else
    for (const [platform, r] of Object.entries(data.results)) {
      console.log(`${platform}\t${r.success ? 'connected' : 'not connected'}${r.message ? `\t${r.message}` : ''}`);
    }
  return 0;
}
