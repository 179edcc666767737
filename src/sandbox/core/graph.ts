// Pieces shared by the Meta Graph-style APIs (Facebook, Instagram, Threads): the `fields=` selector language,
// node projection, and the Graph error envelope.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, bodyParams, queryParams, sendJson } from './http.ts';
import { randomAlnum } from './ids.ts';
import { sendAnswer } from './route.ts';
import type { Call, ErrorAnswer, TransientFault } from './route.ts';
import { checkToken } from './tokens.ts';
import type { JsonObject, JsonValue, TokenRecord } from './types.ts';

export interface FieldSel {
  name: string;
  /** Modifiers such as `.type(large)` or `.limit(5)`. */
  args: Record<string, string>;
  sub: FieldSel[] | null;
}

export class FieldSyntaxError extends Error {}

/** Parses `id,name,picture.type(large),instagram_business_account{id,username}`. */
export function parseFields(input: string): FieldSel[] {
  let pos = 0;
  const peek = (): string => input[pos] ?? '';
  const word = (): string => {
    const m = /^[A-Za-z0-9_]+/.exec(input.slice(pos));
    if (!m) throw new FieldSyntaxError(`Syntax error "Expected name." at character ${pos}: ${input}`);
    pos += m[0].length;
    return m[0];
  };
  const list = (closing: string): FieldSel[] => {
    const out: FieldSel[] = [];
    while (pos < input.length && peek() !== closing) {
      const sel: FieldSel = { name: word(), args: {}, sub: null };
      while (peek() === '.') {
        pos++;
        const mod = word();
        if (peek() !== '(') throw new FieldSyntaxError(`Syntax error "Expected "("." at character ${pos}: ${input}`);
        const end = input.indexOf(')', pos);
        if (end < 0) throw new FieldSyntaxError(`Syntax error "Expected ")"." at character ${pos}: ${input}`);
        sel.args[mod] = input.slice(pos + 1, end);
        pos = end + 1;
      }
      if (peek() === '{') {
        pos++;
        sel.sub = list('}');
        if (peek() !== '}') throw new FieldSyntaxError(`Syntax error "Expected "}"." at character ${pos}: ${input}`);
        pos++;
      }
      out.push(sel);
      if (peek() === ',') pos++;
      else if (peek() !== closing && pos < input.length) {
        throw new FieldSyntaxError(
          `Syntax error "Expected end of string instead of "${peek()}"." at character ${pos}: ${input}`,
        );
      }
    }
    return out;
  };
  return list('');
}

export type Resolver = (sel: FieldSel) => JsonValue | undefined;

export interface NodeType {
  typeName: string;
  fields: Record<string, Resolver>;
  /** Fields returned when the request names none. */
  defaults: string[];
}

export class UnknownFieldError extends Error {
  readonly field: string;
  readonly typeName: string;
  constructor(field: string, typeName: string) {
    super(`(#100) Tried accessing nonexisting field (${field}) on node type (${typeName})`);
    this.field = field;
    this.typeName = typeName;
  }
}

export function project(type: NodeType, sels: FieldSel[] | null): JsonObject {
  const chosen = sels ?? type.defaults.map((name) => ({ name, args: {}, sub: null }));
  const out: JsonObject = {};
  for (const sel of chosen) {
    const resolve = type.fields[sel.name];
    if (!resolve) throw new UnknownFieldError(sel.name, type.typeName);
    const value = resolve(sel);
    if (value !== undefined) out[sel.name] = value;
  }
  return out;
}

/** Field selection of a request, or null when `fields` is absent. */
export function requestedFields(req: FastifyRequest): FieldSel[] | null {
  const fields = { ...queryParams(req), ...bodyParams(req) }.fields;
  return fields ? parseFields(fields) : null;
}

/** Graph APIs take the token from `access_token` (query or form) or an `Authorization: Bearer` header. */
export function graphToken(req: FastifyRequest): string | undefined {
  return { ...queryParams(req), ...bodyParams(req) }.access_token ?? bearerToken(req);
}

export function fbtraceId(): string {
  return `A${randomAlnum(22)}`;
}

export interface GraphErrorInput {
  message: string;
  type?: string;
  code: number;
  subcode?: number;
  transient?: boolean;
  userTitle?: string;
  userMsg?: string;
}

export function graphError(status: number, input: GraphErrorInput, headers?: Record<string, string>): ErrorAnswer {
  const error: JsonObject = { message: input.message, type: input.type ?? 'OAuthException', code: input.code };
  if (input.subcode !== undefined) error.error_subcode = input.subcode;
  if (input.transient !== undefined) error.is_transient = input.transient;
  if (input.userTitle) error.error_user_title = input.userTitle;
  if (input.userMsg) error.error_user_msg = input.userMsg;
  error.fbtrace_id = fbtraceId();
  return headers ? { status, body: { error }, headers } : { status, body: { error } };
}

/** Graph's answers to throttling (code 4, with the usage header at 100 %) and to transient failures (code 2). */
export function graphFault(kind: TransientFault): ErrorAnswer {
  if (kind === 'rate_limit') {
    return graphError(
      400,
      { message: '(#4) Application request limit reached', code: 4, transient: true },
      { 'x-app-usage': JSON.stringify({ call_count: 100, total_cputime: 31, total_time: 45 }) },
    );
  }
  return graphError(500, {
    message: 'An unexpected error has occurred. Please retry your request later.',
    code: 2,
    transient: true,
  });
}

/** "Tuesday, 02-Jan-26 10:00:00 UTC" — the date style of Graph's session-expired message. */
export function graphDate(ms: number): string {
  const d = new Date(ms);
  const day = d.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  const month = d.toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' });
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${day}, ${pad(d.getUTCDate())}-${month}-${pad(d.getUTCFullYear() % 100)} ${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}:${pad(d.getUTCSeconds())} UTC`;
}

/** Graph's answers to a missing, unknown, expired or revoked token (always code 190 once a token was sent). */
export function graphTokenError(
  problem: 'missing' | 'invalid' | 'expired' | 'revoked',
  info: { nowMs: number; expiredAt?: number | null; appId: string; aboutMe: boolean },
): ErrorAnswer {
  let input: GraphErrorInput;
  if (problem === 'missing') {
    input = info.aboutMe
      ? { message: 'An active access token must be used to query information about the current user.', code: 2500 }
      : { message: 'An access token is required to request this resource.', code: 104 };
  } else if (problem === 'invalid') {
    input = { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 };
  } else if (problem === 'expired') {
    const at = graphDate(info.expiredAt ?? info.nowMs);
    input = {
      message: `Error validating access token: Session has expired on ${at}. The current time is ${graphDate(info.nowMs)}.`,
      code: 190,
      subcode: 463,
    };
  } else {
    input = {
      message: `Error validating access token: The user has not authorized application ${info.appId}.`,
      code: 190,
      subcode: 458,
    };
  }
  const headers =
    problem === 'missing'
      ? undefined
      : { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${input.message}"` };
  return graphError(400, input, headers);
}

/** Token check for Graph endpoints; answers the Graph error itself and returns null on failure. */
export function graphAuth(
  call: Call,
  req: FastifyRequest,
  reply: FastifyReply,
  opts: { kinds: readonly string[]; appId: string; aboutMe: boolean },
): TokenRecord | null {
  const checked = checkToken(call, graphToken(req), opts.kinds);
  if (checked.ok) return checked.token;
  const answer = graphTokenError(checked.problem, {
    nowMs: call.ctx.nowMs(),
    expiredAt: checked.token?.expiresAt ?? null,
    appId: opts.appId,
    aboutMe: opts.aboutMe,
  });
  sendAnswer(reply, answer);
  return null;
}

/** Runs a projection, turning selector and unknown-field errors into Graph's (#100) answers. */
export function sendProjected(reply: FastifyReply, build: () => JsonValue): FastifyReply {
  try {
    return sendJson(reply, 200, build());
  } catch (err) {
    if (err instanceof UnknownFieldError || err instanceof FieldSyntaxError) {
      return sendAnswer(reply, graphError(400, { message: err.message, code: 100 }));
    }
    throw err;
  }
}

export function unsupportedGet(id: string, method = 'get'): ErrorAnswer {
  return graphError(400, {
    message: `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    type: 'GraphMethodException',
    code: 100,
    subcode: 33,
  });
}

export function missingPermission(permission: string): ErrorAnswer {
  return graphError(403, { message: `(#10) This endpoint requires the '${permission}' permission.`, code: 10 });
}

/** `{data, paging}` list envelope with opaque cursors. */
export function graphList(items: JsonObject[], limitParam: string | undefined): JsonObject {
  const limit = Math.max(1, Math.min(100, Number(limitParam ?? 25) || 25));
  const data = items.slice(0, limit);
  const cursor = (item: JsonObject | undefined): string => Buffer.from(String(item?.id ?? '')).toString('base64url');
  if (data.length === 0) return { data: [] };
  return { data, paging: { cursors: { before: cursor(data[0]), after: cursor(data[data.length - 1]) } } };
}
