// One network's copy from a configured model (ai/service.ts): the instructions, the answer cleaned of quotes and
// preamble, asked again when over the network's limit and then shortened; model failures in safe words. Also the
// lazily loaded AI SDK and image encoder the generators share.
import type { ModelMessage } from 'ai';
import type { NetworkContract } from '../platforms/contract.ts';
import { AppError } from '../errors.ts';
import { captionLimit, copyKind } from './builtin/kinds.ts';
import { clip, fits, measure } from './builtin/text.ts';
import type { AiConfig } from './config.ts';
import type { AiModels } from './models.ts';

/** The AI SDK, loaded on the first model call (the built-in provider never needs it). */
let sdk: Promise<typeof import('ai')> | undefined;
export const aiSdk = () => (sdk ??= import('ai'));
/** The image encoder (sharp and satori's module), loaded when an image is made or shown to a model. */
export const encodeImage: typeof import('./builtin/card.ts').encodeImage = async (...args) =>
  (await import('./builtin/card.ts')).encodeImage(...args);

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

/** The system instructions for one network's post. */
export function instructions(n: NetworkContract, userRequirements?: string): string {
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
export async function modelCopy(
  models: AiModels,
  config: AiConfig,
  n: NetworkContract,
  messages: ModelMessage[],
  system: string,
  first?: string,
): Promise<string> {
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
          abortSignal: AbortSignal.timeout(config.timeoutMs),
        })
      ).text,
    );
  let text = first ?? (await ask(messages));
  for (let i = 0; i < config.retriesWhenTooLong && !fits(text, limit) && text; i++) {
    const over = `That text is ${measure(text, limit)} ${UNIT_WORDS[limit.unit]}; ${n.displayName} allows ${limit.max}. Write it again, shorter, with the same meaning.`;
    text = await ask([...messages, { role: 'assistant', content: text }, { role: 'user', content: over }]);
  }
  if (!text) throw new AppError('bad_gateway', 'The model answered with no text.');
  return clip(text, limit);
}
