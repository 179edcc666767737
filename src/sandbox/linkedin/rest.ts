// What every versioned publishing call (/rest/posts, /rest/images, /rest/videos) checks first: the bearer token, the
// LinkedIn-Version and X-Restli-Protocol-Version headers, and whether the member may act as (or read for) an author
// URN — themselves, or an organization they administer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assetsOf } from '../core/accounts.ts';
import { bearerToken, headerValue } from '../core/http.ts';
import { findObject } from '../core/objects.ts';
import type { ObjectMap } from '../core/store.ts';
import type { ErrorAnswer } from '../core/route.ts';
import { sendAnswer } from '../core/route.ts';
import type { Call } from '../core/route.ts';
import { checkToken } from '../core/tokens.ts';
import type { AccountRecord, ObjectRecord, TokenRecord } from '../core/types.ts';
import { apiError, notFound, tokenError, versionProblem } from './errors.ts';

export interface RestAuth {
  token: TokenRecord;
  account: AccountRecord;
  /** The LinkedIn-Version the caller pinned, e.g. 202611. */
  version: string;
}

/** Roles that may post as an organization (Community Management: ADMINISTRATOR, DSC poster, content admin). */
const POSTING_ROLES = ['ADMINISTRATOR', 'DIRECT_SPONSORED_CONTENT_POSTER', 'CONTENT_ADMINISTRATOR'];

export function restAuth(req: FastifyRequest, reply: FastifyReply, call: Call): RestAuth | null {
  const checked = checkToken(call, bearerToken(req), ['access']);
  if (!checked.ok) {
    sendAnswer(reply, tokenError(checked.problem));
    return null;
  }
  const version = headerValue(req, 'linkedin-version');
  const problem = versionProblem(version, call.ctx.nowMs());
  if (problem) {
    sendAnswer(reply, problem);
    return null;
  }
  if (headerValue(req, 'x-restli-protocol-version') !== '2.0.0') {
    sendAnswer(
      reply,
      apiError(400, 'ILLEGAL_ARGUMENT', 'The X-Restli-Protocol-Version header must be 2.0.0 for this resource'),
    );
    return null;
  }
  const account = call.slice.accounts.get(checked.token.accountId);
  if (!account) {
    sendAnswer(reply, tokenError('invalid'));
    return null;
  }
  return { token: checked.token, account, version: (version ?? '').trim() };
}

/** Validation failure in the Rest.li input-error shape LinkedIn uses for the Posts, Images and Videos APIs. */
export function inputError(code: string, fieldPath: string, description: string, status = 400): ErrorAnswer {
  return {
    status,
    body: {
      errorDetailType: 'com.linkedin.common.error.BadRequest',
      code,
      message: description,
      errorDetails: { inputErrors: [{ description, input: { inputPath: { fieldPath } }, code }] },
      status,
    },
  };
}

/** Several (or field-level) validation failures: a generic message, each failure only in `errorDetails.inputErrors`. */
export function validationErrors(
  errors: { code: string; fieldPath: string; description: string }[],
  status = 400,
): ErrorAnswer {
  return {
    status,
    body: {
      errorDetailType: 'com.linkedin.common.error.BadRequest',
      message:
        'Multiple errors occurred during the input validation. Please refer to errorDetails for more information.',
      errorDetails: {
        inputErrors: errors.map((e) => ({
          description: e.description,
          input: { inputPath: { fieldPath: e.fieldPath } },
          code: e.code,
        })),
      },
      status,
    },
  };
}

export function denied(auth: RestAuth, resource: string, method: string): ErrorAnswer {
  return apiError(
    403,
    'ACCESS_DENIED',
    `Not enough permissions to access: ${resource}.${method}.${auth.version.split('.')[0] ?? ''}01`,
    100,
  );
}

const PERSON = /^urn:li:person:([A-Za-z0-9_-]+)$/;
const ORGANIZATION = /^urn:li:organization(?:Brand)?:(\d+)$/;

export type UrnKind = 'person' | 'organization';

export function urnKind(urn: string): UrnKind | null {
  if (PERSON.test(urn)) return 'person';
  if (ORGANIZATION.test(urn)) return 'organization';
  return null;
}

/**
 * Whether the member may write (post, upload media) or read as `urn`. Writing as a person needs w_member_social and
 * must be the token's own member; as an organization, w_organization_social and a posting role on it. Reading needs
 * r_member_social (closed to new apps) or r_organization_social.
 */
export function actorProblem(
  auth: RestAuth,
  urn: string,
  mode: 'write' | 'read',
  resource: string,
  method: string,
): ErrorAnswer | null {
  const person = PERSON.exec(urn);
  const scopes = auth.token.scopes;
  if (person) {
    const scope = mode === 'write' ? 'w_member_social' : 'r_member_social';
    if (!scopes.includes(scope) || person[1] !== auth.account.id) return denied(auth, resource, method);
    return null;
  }
  const org = ORGANIZATION.exec(urn);
  if (!org)
    return inputError(
      'INVALID_URN_TYPE',
      '/author',
      `Invalid URN type for ${urn}: expected urn:li:person or urn:li:organization`,
    );
  const scope = mode === 'write' ? ['w_organization_social'] : ['r_organization_social', 'rw_organization_admin'];
  const role = assetsOf(auth.account, 'organization').find((o) => o.id === org[1])?.fields.role;
  if (!scope.some((s) => scopes.includes(s)) || !POSTING_ROLES.includes(String(role)))
    return denied(auth, resource, method);
  return null;
}

/** URNs arrive URL-encoded in paths (`urn%3Ali%3Ashare%3A1`); Fastify decodes them, clients sometimes double-encode. */
export function decodeUrn(raw: string): string {
  return raw.includes('%') ? decodeURIComponent(raw) : raw;
}

/**
 * The object the `:urn` path parameter names (of `kind`, when given), for a caller that passed restAuth; otherwise the
 * answer (token, headers or 404) has been sent and the result is null. Whether the caller may read or change it as its
 * owner is each route's own check.
 */
export function pathObject(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  map: ObjectMap,
  kind?: string,
): { auth: RestAuth; urn: string; record: ObjectRecord } | null {
  const auth = restAuth(req, reply, call);
  if (!auth) return null;
  const urn = decodeUrn((req.params as { urn: string }).urn);
  const record = findObject(call, map, urn);
  if (!record || (kind !== undefined && record.kind !== kind)) {
    sendAnswer(reply, notFound(urn));
    return null;
  }
  return { auth, urn, record };
}
