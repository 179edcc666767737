// The built-in provider: what Herald does when no model is configured. Rules over the networks'
// contracts for copy, satori + sharp for text cards, tesseract, exifr, sharp and ffprobe/ffmpeg for
// what images and videos hold. Deterministic, offline, and labelled as such wherever it answers.
import type { NetworkContract } from '../../platforms/contract.ts';
import {
  analyzeImage,
  analyzeVideo,
  describe,
  ideaFrom,
  type AnalyzeOptions,
  type ImageFacts,
  type VideoFacts,
} from './analyze.ts';
import { cardSize, renderCard, type Card, type CardSize } from './card.ts';
import { layoutIndex, prepareIdea, writeCopy, type CopyKind } from './copy.ts';
import { BUILTIN_ID, BUILTIN_LABEL } from './kinds.ts';
import { detectLanguage, type Language } from './language.ts';
import type { OcrOptions } from './ocr.ts';

export type { Card, CardSize } from './card.ts';
export type { ImageFacts, VideoFacts } from './analyze.ts';
export type { Language } from './language.ts';

export { BUILTIN_ID, BUILTIN_LABEL } from './kinds.ts';

/**
 * Image targets the interface names beyond the registry's networks: the image generator's `twitter`
 * (alias `x`), which Herald does not connect but makes images for. 16:9 as X shows single images.
 */
const EXTRA_IMAGE_TARGETS: Readonly<Record<string, ImageTarget>> = {
  twitter: { size: { width: 1600, height: 900 }, formats: ['png', 'jpeg'], maxBytes: 5 * 1024 * 1024 },
};

export interface ImageTarget {
  size: CardSize;
  formats: readonly string[];
  maxBytes: number;
}

export interface BuiltinOptions {
  /** The registry's networks (Networks.networks): the only source of what a network is. */
  networks: readonly NetworkContract[];
  ocr?: OcrOptions;
  ffprobePath?: string | false;
  ffmpegPath?: string;
}

export interface BuiltinCopy {
  platform: string;
  /** The caption (a title where the network's caption is one), within the network's limit. */
  content: string;
  /** Copy for the network's secondary text fields (its override's title/description fields), each within its limit. */
  fields: Record<string, string>;
  hashtags: string[];
  kind: CopyKind;
  language: Language;
}

export interface BuiltinImage extends Card {
  platform: string;
}

export interface MediaAnalysis<F extends ImageFacts | VideoFacts = ImageFacts | VideoFacts> {
  facts: F;
  description: string;
  altText: string;
}

export class BuiltinProvider {
  readonly id = BUILTIN_ID;
  readonly label = BUILTIN_LABEL;
  readonly #networks: readonly NetworkContract[];
  readonly #analyze: AnalyzeOptions;

  constructor(opts: BuiltinOptions) {
    this.#networks = opts.networks;
    this.#analyze = {
      ...(opts.ocr ? { ocr: opts.ocr } : {}),
      ...(opts.ffprobePath !== undefined ? { ffprobePath: opts.ffprobePath } : {}),
      ...(opts.ffmpegPath ? { ffmpegPath: opts.ffmpegPath } : {}),
    };
  }

  #network(slug: string): NetworkContract {
    const n = this.#networks.find((x) => x.slug === slug);
    if (!n) throw new Error(`No network ${slug}`);
    return n;
  }

  /**
   * Copy for one network from an idea. The language is the idea's; nothing is added but its own words, layout and
   * hashtags.
   */
  async copy(idea: string, platform: string): Promise<BuiltinCopy> {
    return (await this.copies(idea, [platform]))[0]!;
  }

  /** Copy for several networks from one idea (taken apart once). */
  async copies(idea: string, platforms: readonly string[]): Promise<BuiltinCopy[]> {
    const prepared = prepareIdea(idea, await detectLanguage(idea));
    return platforms.map((platform) => {
      const c = writeCopy(prepared, this.#network(platform), layoutIndex(this.#networks, platform));
      return {
        platform,
        content: c.text,
        fields: c.fields,
        hashtags: c.hashtags,
        kind: c.kind,
        language: prepared.lang,
      };
    });
  }

  /** The copy, as a stream of pieces (word by word), for callers that stream every provider alike. */
  async *stream(idea: string, platform: string): AsyncGenerator<string, BuiltinCopy> {
    const c = await this.copy(idea, platform);
    for (const piece of c.content.match(/\S+\s*|\s+/gu) ?? []) yield piece;
    return c;
  }

  /** Whether `image` can make a card for this target: a registry network, or one of the interface's extra targets. */
  hasImageTarget(target: string): boolean {
    return target in EXTRA_IMAGE_TARGETS || this.#networks.some((n) => n.slug === target);
  }

  /** The size an image for `target` is made in, the formats it accepts and its byte limit. */
  imageTarget(target: string): ImageTarget {
    const extra = EXTRA_IMAGE_TARGETS[target];
    if (extra) return extra;
    const n = this.#network(target);
    return { size: cardSize(n), formats: n.media.imageFormats, maxBytes: n.media.maxImageBytes };
  }

  /** A text card of `content` in the target's preferred size and an accepted format, as bytes. */
  async image(content: string, target: string): Promise<BuiltinImage> {
    const lang = await detectLanguage(content);
    const spec = this.imageTarget(target);
    const card = await renderCard({
      copy: content,
      size: spec.size,
      formats: spec.formats,
      maxBytes: spec.maxBytes,
      lang: lang.code,
    });
    return { ...card, platform: target };
  }

  async analyzeImage(bytes: Buffer, fileName?: string): Promise<MediaAnalysis<ImageFacts>> {
    const facts = await analyzeImage(bytes, { ...this.#analyze, ...(fileName ? { fileName } : {}) });
    return { facts, ...describe(facts) };
  }

  /** `path`: the video on local disk (Herald's storage or a temporary download). */
  async analyzeVideo(path: string, fileName?: string): Promise<MediaAnalysis<VideoFacts>> {
    const facts = await analyzeVideo(path, { ...this.#analyze, ...(fileName ? { fileName } : {}) });
    return { facts, ...describe(facts) };
  }

  /**
   * Copy for networks from what an analysis found (the file's caption or name and the text in it; its facts otherwise).
   */
  async copiesFromMedia(analysis: MediaAnalysis, platforms: readonly string[]): Promise<BuiltinCopy[]> {
    return this.copies(ideaFrom(analysis.facts), platforms);
  }
}
