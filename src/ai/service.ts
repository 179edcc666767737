// The AI generators behind the four REST routes (and, later, the tool layer): copy from an idea, images
// from copy, copy from an image or a video, and media analysis. One path for every provider: a
// configured model through the AI SDK, or the built-in provider. Networks run in parallel; each
// network's copy is checked against its contract's limit (asked again, then shortened) and never comes
// back over it. The request's whole credit cost is reserved before any model call; what a failed
// network did not use is given back.
import type { ModelMessage } from 'ai';
import type { Principal } from '../auth/authenticate.ts';
import type { NetworkContract } from '../platforms/contract.ts';
import { AppError } from '../errors.ts';
import { BUILTIN_LABEL } from './builtin/kinds.ts';
import { clip } from './builtin/text.ts';
import { streamCopy } from './copy-stream.ts';
import { settle } from './credit-settle.ts';
import { builtinAnalysis, picturesOf, speechOf } from './media-input.ts';
import { aiSdk, cleanCopy, encodeImage, instructions, modelCopy } from './model-copy.ts';
import type {
  AiServiceDeps,
  AnalysisResult,
  CopyEvent,
  CopyRequest,
  Generated,
  ImageRequest,
  MediaCopyRequest,
} from './requests.ts';

export { AI_COSTS } from './credit-settle.ts';
export { cleanCopy, modelFailure } from './model-copy.ts';
export type {
  AiMedia,
  AiServiceDeps,
  AnalysisResult,
  CopyEvent,
  CopyRequest,
  Generated,
  ImageRequest,
  MediaCopyRequest,
  NetworkResult,
} from './requests.ts';

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

  #platformsOf(platforms: readonly string[]): NetworkContract[] {
    return platforms.map((pl) => this.#network(pl));
  }

  /** POST /unified/content/generate: copy per network from an idea. */
  async copy(p: Principal, req: CopyRequest): Promise<Generated<{ content: string }>> {
    const networks = this.#platformsOf(req.platforms);
    const ideaFor = (slug: string) => req.ideaByPlatform?.[slug] ?? req.idea ?? '';
    return settle(
      this.#d,
      p,
      'generation_long',
      req.platforms,
      async (slug) => {
        const n = networks.find((x) => x.slug === slug)!;
        if (!this.#d.models) return { content: (await (await this.#d.builtin()).copy(ideaFor(slug), slug)).content };
        return {
          content: await modelCopy(
            this.#d.models!,
            this.#d.config,
            n,
            [{ role: 'user', content: `The idea:\n${ideaFor(slug)}` }],
            instructions(n, req.userRequirements),
          ),
        };
      },
      'copy',
      this.source,
    );
  }

  /**
   * The same, streamed: pieces of each network's copy as they arrive, then its final copy (which may be
   * shorter than the pieces when the model went over the limit). Credits are settled when all networks end.
   */
  async *copyStream(p: Principal, req: CopyRequest): AsyncGenerator<CopyEvent, { message: string; failed: number }> {
    return yield* streamCopy(this.#d, p, req, this.#platformsOf(req.platforms), this.source);
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
    return settle(
      this.#d,
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
      const found = await builtinAnalysis(this.#d.builtin, file.path, kind, file.name);
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
      const images = await picturesOf(
        this.#d.config,
        file.path,
        kind,
        facts.kind === 'video' ? facts.durationSec : null,
      );
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

  /** POST /unified/image-to-content/generate and /video-to-content/generate: copy per network from a medium. */
  async copyFromMedia(p: Principal, req: MediaCopyRequest): Promise<Generated<{ content: string }>> {
    const networks = this.#platformsOf(req.platforms);
    // The file is read (and checked) before any credit is spent.
    const file = await this.#d.media.readUrl(p, req.url, req.kind, req.loc);
    try {
      const analysis = await builtinAnalysis(this.#d.builtin, file.path, req.kind, file.name);
      const models = this.#d.models;
      let messages: ModelMessage[] = [];
      if (models) {
        const duration = analysis.facts.kind === 'video' ? analysis.facts.durationSec : null;
        const [pictures, speech] = await Promise.all([
          picturesOf(this.#d.config, file.path, req.kind, duration),
          req.kind === 'video' ? speechOf(this.#d.models, this.#d.config, file.path) : Promise.resolve(''),
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
      return await settle(
        this.#d,
        p,
        'generation_long',
        req.platforms,
        async (slug) => {
          const n = networks.find((x) => x.slug === slug)!;
          if (!models)
            return { content: (await (await this.#d.builtin()).copiesFromMedia(analysis, [slug]))[0]!.content };
          return {
            content: await modelCopy(
              this.#d.models!,
              this.#d.config,
              n,
              messages,
              instructions(n, req.userRequirements),
            ),
          };
        },
        'copy',
        this.source,
      );
    } finally {
      await this.#d.media.release(file.path);
    }
  }
}
