// Herald's JSON body parser: UTF-8 only, nested at most JSON_MAX_DEPTH levels, then Fastify's own parse
// (prototype-poisoning checks included). The depth is measured on the text, before anything is built from
// it, so no walk over a body (null stripping, string checks, hashing, serializing) meets a deeper one.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationField } from '../../errors.ts';
import { JSON_MAX_DEPTH } from '../../input-strings.ts';

const CHARSET = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i;
const UTF8 = /^utf-?8$/i;
const [OPEN_OBJECT, OPEN_ARRAY, CLOSE_OBJECT, CLOSE_ARRAY, QUOTE, BACKSLASH] = ['{', '[', '}', ']', '"', '\\'].map(
  (c) => c.charCodeAt(0),
);

/** Whether the JSON text nests objects and arrays deeper than `max` levels (brackets inside strings do not count). */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** A 415 for a charset other than UTF-8; undefined when the Content-Type names none or UTF-8. */
function charsetRefusal(req: FastifyRequest): Error | undefined {
  const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[2];
  if (charset === undefined || UTF8.test(charset)) return undefined;
  return Object.assign(
    new Error(
      `Unsupported charset '${charset}' in Content-Type: send the JSON body encoded as UTF-8 (charset=utf-8, or no charset).`,
    ),
    { statusCode: 415 },
  );
}

/**
 * Replaces the scope's application/json parser. `empty`, when given, is the body an empty request stands for
 * (the GPT Actions take a bare POST as `{}`); otherwise an empty body is malformed JSON.
 */
export function installJsonParser(scope: FastifyInstance, opts: { empty?: unknown } = {}): void {
  const parse = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, raw, done) => {
    const refusal = charsetRefusal(req);
    if (refusal) return done(refusal, undefined);
    const body = raw as string;
    if ('empty' in opts && body.trim() === '') return done(null, opts.empty);
    if (nestedDeeperThan(body, JSON_MAX_DEPTH)) {
      return done(
        validationField(
          ['body'],
          `JSON nesting deeper than ${JSON_MAX_DEPTH} levels is not accepted: send a flatter body.`,
          'json_too_deep',
        ),
        undefined,
      );
    }
    return parse(req, body, done);
  });
}
