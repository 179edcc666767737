// The AI generators behind the four REST routes (and, later, the tool layer): copy from an idea, images
// from copy, copy from an image or a video, and media analysis. One path for every provider: a
// configured model through the AI SDK, or the built-in provider. Networks run in parallel; each
// network's copy is checked against its contract's limit (asked again, then shortened) and never comes
// back over it. The request's whole credit cost is reserved before any model call; what a failed
// network did not use is given back.
import { readFile } from 'node:fs/promises';
import type { ModelMessage } from 'ai';
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticate.ts';
import type { CreditService } from '../auth/credits.ts';
import type { NetworkContract } from '../platforms/contract.ts';
import { AppError } from '../errors.ts';
import { runProgram } from '../program.ts';
import type { BuiltinProvider, MediaAnalysis } from './builtin/index.ts';
import { BUILTIN_LABEL, captionLimit, copyKind, frameAt, sampleTimes } from './builtin/kinds.ts';
import { clip, fits, measure } from './builtin/text.ts';
import type { AiConfig } from './config.ts';
import type { AiModels } from './models.ts';

/** Credits per network, as the interface's Limits table says. */
/** The AI SDK, loaded on the first model call (the built-in provider never needs it). */
let sdk: Promise<typeof import('ai')> | undefined;
const aiSdk = () => (sdk ??= import('ai'));
/** The image encoder (sharp and satori's module), loaded when an image is made or shown to a model. */
const encodeImage: typeof import('./builtin/card.ts').encodeImage = async (...args) =>
  (await import('./builtin/card.ts')).encodeImage(...args);

export const AI_COSTS = { generation_long: 2, image_generate: 5 } as const;

/** What the AI routes need of the media library. */
export interface AiMedia {
  addGenerated(
    p: Principal,
    bytes: Buffer,
    filename: string,
    kind: 'image',
    loc: (string | number)[],
  ): Promise<{ id: string; storageKey: string }>;
  readUrl(
    p: Principal,
    url: string,
    kind: 'image' | 'video',
    loc: (string | number)[],
  ): Promise<{ path: string; size: number; name: string | null }>;
  release(path: string): Promise<void>;
  publicUrl(storageKey: string): string;
}

export interface AiServiceDeps {
  networks: readonly NetworkContract[];
  /** The built-in provider, made on first use (its language tables and fonts are not loaded before). */
  builtin: () => Promise<BuiltinProvider>;
  models: AiModels | null;
  credits: CreditService;
  media: AiMedia;
  config: AiConfig;
  logger: Logger;
}

export type NetworkResult<T> = T | { error: string };
export interface Generated<T> {
  message: string;
  data: Record<string, NetworkResult<T>>;
}

export interface CopyRequest {
  idea?: string | undefined;
  ideaByPlatform?: Record<string, string> | undefined;
  platforms: readonly string[];
  userRequirements?: string | undefined;
}

export interface ImageRequest {
  content?: string | undefined;
  contentByPlatform?: Record<string, string> | undefined;
  targets: readonly string[];
  userRequirements?: string | undefined;
}

export interface MediaCopyRequest {
  url: string;
  kind: 'image' | 'video';
  platforms: readonly string[];
  userRequirements?: string | undefined;
  loc: (string | number)[];
}

export interface AnalysisResult {
  media_type: 'image' | 'video';
  description: string;
  alt_text: string;
  text_found: string;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
  format: string;
  source: string;
}

/** Events of a streamed generation, in order: pieces per network as they arrive, then each network's final copy or error. */
export type CopyEvent =
  | { type: 'delta'; platform: string; text: string }
  | { type: 'done'; platform: string; content: string }
  | { type: 'error'; platform: string; error: string };

const UNIT_WORDS = { utf16: 'characters', graphemes: 'characters', bytes: 'bytes (UTF-8)' } as const;

const KIND_HINTS = {
  title: 'a title: one line, no hashtags, no full stop at the end',
  short: 'a short post: a hook in the first line, at most two hashtags',
  long: 'a longer post: short paragraphs separated by blank lines, a few hashtags at the end',
  caption: 'a caption for a picture or video: a hook first, then hashtags',
} as const;

/** A model's answer as post text: no surrounding quotes, code fences or "Here is…" preamble. */
export function cleanCopy(text: string): string {
  let t = text.trim();
  t = t.replace(/^```[a-z]*\n([\s\S]*?)\n```$/i, '$1').trim();
  t = t.replace(/^(here(?:'s| is) (?:the|your|a) [^\n:]{0,60}:)\s*\n/i, '').trim();
  const pairs: [string, string][] = [
    ['"', '"'],
    ['“', '”'],
    ["'", "'"],
  ];
  for (const [a, b] of pairs)
    if (t.length > 1 && t.startsWith(a) && t.endsWith(b)) t = t.slice(a.length, -b.length).trim();
  return t;
}

/** An error from a model call, in words that name no secret and no internal address. */
export function modelFailure(err: unknown): string {
  // The SDK's retries wrap the last failure.
  const outer = err as { name?: string; lastError?: unknown };
  const e = (outer?.name === 'AI_RetryError' && outer.lastError ? outer.lastError : err) as {
    name?: string;
    statusCode?: number;
    message?: string;
  };
  if (typeof e?.statusCode === 'number') return `The model provider answered HTTP ${e.statusCode}.`;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'The model did not answer in time.';
  if (e?.name?.startsWith('AI_')) return `The model call failed (${e.name.slice(3)}).`;
  return 'The model call failed.';
}

export class AiService {
  readonly #d: AiServiceDeps;

  constructor(deps: AiServiceDeps) {
    this.#d = deps;
  }

  /** Who answers: the configured model, or the built-in provider. */
  get source(): string {
    return this.#d.models ? `the ${this.#d.models.label} model` : BUILTIN_LABEL;
  }

  #network(slug: string): NetworkContract {
    const n = this.#d.networks.find((x) => x.slug === slug);
    if (!n) throw new AppError('bad_request', `Unknown platform '${slug}'.`);
    return n;
  }

  /** Reserves `each` × networks before any model call; returns a function that gives back what failed networks did not use. */
  async #reserve(
    p: Principal,
    reason: keyof typeof AI_COSTS,
    networks: number,
  ): Promise<(failed: number) => Promise<void>> {
    const each = AI_COSTS[reason];
    await this.#d.credits.spend({
      workspaceId: p.workspaceId,
      planId: p.planId,
      type: 'ai_credits',
      amount: each * networks,
      reason,
    });
    return async (failed) => {
      if (failed > 0)
        await this.#d.credits.refund({
          workspaceId: p.workspaceId,
          type: 'ai_credits',
          amount: each * failed,
          reason: `${reason}_refund`,
        });
    };
  }

  /** Runs every network, settles credits, and answers 502 when every network failed. */
  async #settle<T>(
    p: Principal,
    reason: keyof typeof AI_COSTS,
    platforms: readonly string[],
    run: (platform: string) => Promise<T>,
    verb: string,
    source = this.source,
  ): Promise<Generated<T>> {
    const refund = await this.#reserve(p, reason, platforms.length);
    const data: Record<string, NetworkResult<T>> = {};
    await Promise.all(
      platforms.map(async (platform) => {
        try {
          data[platform] = await run(platform);
        } catch (err) {
          if (err instanceof AppError)
            data[platform] = { error: typeof err.detail === 'string' ? err.detail : err.message };
          else {
            this.#d.logger.warn(
              { platform, error: modelFailure(err), name: (err as Error)?.name },
              'AI generation failed for a network',
            );
            data[platform] = { error: modelFailure(err) };
          }
        }
      }),
    );
    const failed = platforms.filter((pl) => 'error' in (data[pl] as object)).length;
    await refund(failed);
    const ordered = Object.fromEntries(platforms.map((pl) => [pl, data[pl]!]));
    if (failed === platforms.length) {
      throw new AppError('bad_gateway', {
        error: 'generation_failed',
        message: `No network got ${verb}: ${source} failed for each.`,
        data: ordered,
      });
    }
    const part = failed ? ` (${failed} of ${platforms.length} failed)` : '';
    return { message: `${verb[0]!.toUpperCase()}${verb.slice(1)} generated by ${source}${part}.`, data: ordered };
  }

  #instructions(n: NetworkContract, userRequirements?: string): string {
    const limit = captionLimit(n);
    return [
      `You write the text of one ${n.displayName} post.`,
      `Answer with the post text only: no quotes around it, no preamble, no markdown headings, no notes.`,
      `It must be at most ${limit.max} ${UNIT_WORDS[limit.unit]}${limit.maxBytes ? ` and at most ${limit.maxBytes} bytes` : ''} long.`,
      `Write ${KIND_HINTS[copyKind(n)]}.`,
      `Write in the language of the idea. Do not invent facts, prices, dates or links that the idea does not give.`,
      ...(userRequirements ? [`The author's requirements: ${userRequirements}`] : []),
    ].join('\n');
  }

  /** A model's copy for one network, asked again when over the limit, then shortened: never returned over it. */
  async #modelCopy(n: NetworkContract, messages: ModelMessage[], system: string, first?: string): Promise<string> {
    const models = this.#d.models!;
    const limit = captionLimit(n);
    const model = messages.some((m) => Array.isArray(m.content) && m.content.some((c) => c.type === 'image'))
      ? models.vision
      : models.language;
    const ask = async (msgs: ModelMessage[]) =>
      cleanCopy(
        (
          await (
            await aiSdk()
          ).generateText({
            model,
            system,
            messages: msgs,
            maxRetries: 1,
            abortSignal: AbortSignal.timeout(this.#d.config.timeoutMs),
          })
        ).text,
      );
    let text = first ?? (await ask(messages));
    for (let i = 0; i < this.#d.config.retriesWhenTooLong && !fits(text, limit) && text; i++) {
      const over = `That text is ${measure(text, limit)} ${UNIT_WORDS[limit.unit]}; ${n.displayName} allows ${limit.max}. Write it again, shorter, with the same meaning.`;
      text = await ask([...messages, { role: 'assistant', content: text }, { role: 'user', content: over }]);
    }
    if (!text) throw new AppError('bad_gateway', 'The model answered with no text.');
    return clip(text, limit);
  }

  #platformsOf(platforms: readonly string[]): NetworkContract[] {
    return platforms.map((pl) => this.#network(pl));
  }

  /** POST /unified/content/generate: copy per network from an idea. */
  async copy(p: Principal, req: CopyRequest): Promise<Generated<{ content: string }>> {
    const networks = this.#platformsOf(req.platforms);
    const ideaFor = (slug: string) => req.ideaByPlatform?.[slug] ?? req.idea ?? '';
    return this.#settle(
      p,
      'generation_long',
      req.platforms,
      async (slug) => {
        const n = networks.find((x) => x.slug === slug)!;
        if (!this.#d.models) return { content: (await (await this.#d.builtin()).copy(ideaFor(slug), slug)).content };
        return {
          content: await this.#modelCopy(
            n,
            [{ role: 'user', content: `The idea:\n${ideaFor(slug)}` }],
            this.#instructions(n, req.userRequirements),
          ),
        };
      },
      'copy',
    );
  }

  /**
   * The same, streamed: pieces of each network's copy as they arrive, then its final copy (which may be
   * shorter than the pieces when the model went over the limit). Credits are settled when all networks end.
   */
  async *copyStream(p: Principal, req: CopyRequest): AsyncGenerator<CopyEvent, { message: string; failed: number }> {
    const networks = this.#platformsOf(req.platforms);
    const refund = await this.#reserve(p, 'generation_long', networks.length);
    const queue: CopyEvent[] = [];
    let wake: (() => void) | null = null;
    const push = (e: CopyEvent) => {
      queue.push(e);
      wake?.();
    };
    let failed = 0;
    const ideaFor = (slug: string) => req.ideaByPlatform?.[slug] ?? req.idea ?? '';
    const one = async (n: NetworkContract) => {
      try {
        let content: string;
        if (!this.#d.models) {
          const it = (await this.#d.builtin()).stream(ideaFor(n.slug), n.slug);
          for (let r = await it.next(); ; r = await it.next()) {
            if (r.done) {
              content = r.value.content;
              break;
            }
            push({ type: 'delta', platform: n.slug, text: r.value });
          }
        } else {
          const system = this.#instructions(n, req.userRequirements);
          const messages: ModelMessage[] = [{ role: 'user', content: `The idea:\n${ideaFor(n.slug)}` }];
          const s = (await aiSdk()).streamText({
            model: this.#d.models.language,
            system,
            messages,
            maxRetries: 1,
            abortSignal: AbortSignal.timeout(this.#d.config.timeoutMs),
          });
          let all = '';
          for await (const piece of s.textStream) {
            all += piece;
            push({ type: 'delta', platform: n.slug, text: piece });
          }
          content = await this.#modelCopy(n, messages, system, cleanCopy(all));
        }
        push({ type: 'done', platform: n.slug, content });
      } catch (err) {
        failed++;
        push({
          type: 'error',
          platform: n.slug,
          error: err instanceof AppError && typeof err.detail === 'string' ? err.detail : modelFailure(err),
        });
      }
    };
    let running = networks.length;
    for (const n of networks)
      void one(n).finally(() => {
        running--;
        wake?.();
      });
    while (running > 0 || queue.length) {
      if (!queue.length) await new Promise<void>((r) => (wake = r));
      wake = null;
      while (queue.length) yield queue.shift()!;
    }
    await refund(failed);
    const part = failed ? ` (${failed} of ${networks.length} failed)` : '';
    return { message: `Copy generated by ${this.source}${part}.`, failed };
  }

  /** POST /unified/image/generate: an image per target, stored as this workspace's media. */
  async images(
    p: Principal,
    req: ImageRequest,
  ): Promise<Generated<{ image_url: string; media_id: string; image_prompt: string }>> {
    for (const t of req.targets)
      if (!(await this.#d.builtin()).hasImageTarget(t)) throw new AppError('bad_request', `Unknown platform '${t}'.`);
    const image = this.#d.models?.image ?? null;
    const source = image
      ? `the ${this.#d.models!.label.split(' ')[0]} image model ${this.#d.config.imageModel}`
      : "Herald's built-in card renderer (no image model)";
    return this.#settle(
      p,
      'image_generate',
      req.targets,
      async (target) => {
        const text = req.contentByPlatform?.[target] ?? req.content ?? '';
        const spec = (await this.#d.builtin()).imageTarget(target);
        let bytes: Buffer;
        let format: string;
        let prompt: string;
        if (image) {
          prompt = [
            `An image for a social media post on ${target}, ${spec.size.width}×${spec.size.height}, without any text in it.`,
            `The post: ${text}`,
            ...(req.userRequirements ? [`Requirements: ${req.userRequirements}`] : []),
          ].join('\n');
          const out = await (await aiSdk()).generateImage({
            model: image,
            prompt,
            n: 1,
            maxRetries: 1,
            abortSignal: AbortSignal.timeout(this.#d.config.timeoutMs),
          });
          const enc = await encodeImage(Buffer.from(out.image.uint8Array), {
            size: spec.size,
            formats: spec.formats,
            maxBytes: spec.maxBytes,
          });
          bytes = enc.data;
          format = enc.format;
        } else {
          const card = await (await this.#d.builtin()).image(text, target);
          bytes = card.data;
          format = card.format;
          prompt = card.description;
        }
        const row = await this.#d.media.addGenerated(
          p,
          bytes,
          `generated-${target}.${format === 'jpeg' ? 'jpg' : format}`,
          'image',
          ['body', 'platforms'],
        );
        return { image_url: this.#d.media.publicUrl(row.storageKey), media_id: row.id, image_prompt: prompt };
      },
      'images',
      source,
    );
  }

  /** analyze_media: what an image or a video holds, through the vision model or the built-in analysis. */
  async analyze(p: Principal, url: string, kind: 'image' | 'video', loc: (string | number)[]): Promise<AnalysisResult> {
    const file = await this.#d.media.readUrl(p, url, kind, loc);
    try {
      const found = await this.#builtinAnalysis(file.path, kind, file.name);
      const facts = found.facts;
      const base: AnalysisResult = {
        media_type: kind,
        description: found.description,
        alt_text: found.altText,
        text_found: facts.text.text,
        width: facts.width,
        height: facts.height,
        duration_seconds: facts.kind === 'video' ? facts.durationSec : null,
        format: facts.format,
        source: BUILTIN_LABEL,
      };
      if (!this.#d.models) return base;
      const images = await this.#pictures(file.path, kind, facts.kind === 'video' ? facts.durationSec : null);
      const ask =
        'Describe this media for someone who cannot see it. First line: one alt text sentence (at most 200 characters). Then a blank line, then a fuller description (at most 600 characters). Do not guess names of people.';
      const res = await (await aiSdk()).generateText({
        model: this.#d.models.vision,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: kind === 'video' ? `${ask}\nThese are frames of a video.` : ask },
              ...images.map((data) => ({ type: 'image' as const, image: data, mediaType: 'image/png' })),
            ],
          },
        ],
        maxRetries: 1,
        abortSignal: AbortSignal.timeout(this.#d.config.timeoutMs),
      });
      const [alt = '', ...rest] = cleanCopy(res.text).split(/\n\s*\n/);
      return {
        ...base,
        alt_text: clip(alt.trim(), { max: 200, unit: 'graphemes' }) || base.alt_text,
        description: clip(rest.join('\n\n').trim() || alt.trim(), { max: 600, unit: 'graphemes' }) || base.description,
        source: `the ${this.#d.models.label} model`,
      };
    } finally {
      await this.#d.media.release(file.path);
    }
  }

  async #builtinAnalysis(path: string, kind: 'image' | 'video', name: string | null): Promise<MediaAnalysis> {
    if (kind === 'video') return (await this.#d.builtin()).analyzeVideo(path, name ?? undefined);
    return (await this.#d.builtin()).analyzeImage(await readFile(path), name ?? undefined);
  }

  /** What a vision model is shown: the image itself (as PNG), or three frames of a video. */
  async #pictures(path: string, kind: 'image' | 'video', durationSec: number | null): Promise<Buffer[]> {
    if (kind === 'image') {
      return [(await encodeImage(await readFile(path), { formats: ['png'] })).data];
    }
    const frames: Buffer[] = [];
    for (const at of sampleTimes(durationSec)) {
      const frame = await frameAt(this.#d.config.ffmpegPath, path, at, 30_000, 768);
      if (frame) frames.push(frame);
    }
    return frames;
  }

  /** The spoken words of a video, when a transcription model is configured and the video has sound. */
  async #speech(path: string): Promise<string> {
    const model = this.#d.models?.transcription;
    if (!model) return '';
    const r = await runProgram(
      this.#d.config.ffmpegPath,
      [
        '-v',
        'error',
        '-nostdin',
        '-protocol_whitelist',
        'file',
        '-i',
        `file:${path}`,
        '-vn',
        '-ac',
        '1',
        '-ar',
        '16000',
        '-t',
        '600',
        '-f',
        'wav',
        '-',
      ],
      { timeoutMs: 120_000, maxOutput: 25 << 20 },
    ).catch(() => null);
    if (r?.code !== 0 || r.stdout.length <= 44) return '';
    const out = await (await aiSdk()).transcribe({
      model,
      audio: r.stdout,
      maxRetries: 1,
      abortSignal: AbortSignal.timeout(this.#d.config.timeoutMs),
    });
    return out.text.trim();
  }

  /** POST /unified/image-to-content/generate and /video-to-content/generate: copy per network from a medium. */
  async copyFromMedia(p: Principal, req: MediaCopyRequest): Promise<Generated<{ content: string }>> {
    const networks = this.#platformsOf(req.platforms);
    // The file is read (and checked) before any credit is spent.
    const file = await this.#d.media.readUrl(p, req.url, req.kind, req.loc);
    try {
      const analysis = await this.#builtinAnalysis(file.path, req.kind, file.name);
      const models = this.#d.models;
      let messages: ModelMessage[] = [];
      if (models) {
        const duration = analysis.facts.kind === 'video' ? analysis.facts.durationSec : null;
        const [pictures, speech] = await Promise.all([
          this.#pictures(file.path, req.kind, duration),
          req.kind === 'video' ? this.#speech(file.path) : Promise.resolve(''),
        ]);
        const facts = [
          `What Herald measured: ${analysis.description}`,
          ...(speech ? [`What is said in it: ${speech}`] : []),
        ].join('\n');
        messages = [
          {
            role: 'user',
            content: [
              {
                type: 'text',
                text: `Write the post about this ${req.kind}${req.kind === 'video' ? ' (frames below)' : ''}.\n${facts}`,
              },
              ...pictures.map((data) => ({ type: 'image' as const, image: data, mediaType: 'image/png' })),
            ],
          },
        ];
      }
      return await this.#settle(
        p,
        'generation_long',
        req.platforms,
        async (slug) => {
          const n = networks.find((x) => x.slug === slug)!;
          if (!models)
            return { content: (await (await this.#d.builtin()).copiesFromMedia(analysis, [slug]))[0]!.content };
          return { content: await this.#modelCopy(n, messages, this.#instructions(n, req.userRequirements)) };
        },
        'copy',
      );
    } finally {
      await this.#d.media.release(file.path);
    }
  }
}
