// Member identity (/v2/userinfo, /v2/me) and the organizations the member administers (/rest/organizationAcls,
// /rest/organizationsLookup, /rest/organizations/{id}, legacy /v2/organizationalEntityAcls).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { assetsOf, str } from '../core/accounts.ts';
import { bearerToken, headerValue, queryParams } from '../core/http.ts';
import { addRoute, sendAnswer } from '../core/route.ts';
import type { Call, Simulator } from '../core/route.ts';
import { checkToken } from '../core/tokens.ts';
import type { AccountRecord, AssetRecord, JsonObject, TokenRecord } from '../core/types.ts';
import { accessDenied, apiError, tokenError, versionProblem } from './errors.ts';

const ORG_SCOPES = ['rw_organization_admin', 'r_organization_admin', 'w_organization_social', 'r_organization_social'];

type Authed = { token: TokenRecord; account: AccountRecord };

/** Bearer check, then (for /rest) the versioning headers, then the scope. */
function authorize(
  req: FastifyRequest,
  reply: FastifyReply,
  call: Call,
  opts: { versioned: boolean; anyScope: string[]; resource: string },
): Authed | FastifyReply {
  const checked = checkToken(call, bearerToken(req), ['access']);
  if (!checked.ok) return sendAnswer(reply, tokenError(checked.problem));
  if (opts.versioned) {
    const problem = versionProblem(headerValue(req, 'linkedin-version'), call.ctx.nowMs());
    if (problem) return sendAnswer(reply, problem);
    if (headerValue(req, 'x-restli-protocol-version') !== '2.0.0') {
      return sendAnswer(
        reply,
        apiError(400, 'ILLEGAL_ARGUMENT', 'The X-Restli-Protocol-Version header must be 2.0.0 for this resource'),
      );
    }
  }
  if (!opts.anyScope.some((s) => checked.token.scopes.includes(s))) {
    return sendAnswer(reply, accessDenied(req.method, opts.resource));
  }
  const account = call.slice.accounts.get(checked.token.accountId);
  if (!account) return sendAnswer(reply, tokenError('invalid'));
  return { token: checked.token, account };
}

function isReply(value: Authed | FastifyReply): value is FastifyReply {
  return !('token' in value);
}

function organization(org: AssetRecord): JsonObject {
  return {
    id: Number(org.id),
    localizedName: org.name,
    name: { localized: { en_US: org.name }, preferredLocale: { country: 'US', language: 'en' } },
    vanityName: str(org.fields.vanityName),
    localizedWebsite: str(org.fields.website),
    logoV2: { original: str(org.fields.logo), cropped: str(org.fields.logo) },
    primaryOrganizationType: 'NONE',
    organizationType: 'PRIVATELY_HELD',
    locations: [],
  };
}

function acl(account: AccountRecord, org: AssetRecord, key: 'organization' | 'organizationalTarget'): JsonObject {
  const time = Date.parse(account.createdAt);
  return {
    roleAssignee: `urn:li:person:${account.id}`,
    state: str(org.fields.state, 'APPROVED'),
    role: str(org.fields.role, 'ADMINISTRATOR'),
    [key]: `urn:li:organization:${org.id}`,
    created: { actor: `urn:li:person:${account.id}`, time },
    lastModified: { actor: `urn:li:person:${account.id}`, time },
  };
}

function aclElements(req: FastifyRequest, reply: FastifyReply, account: AccountRecord): AssetRecord[] | FastifyReply {
  const q = queryParams(req);
  if (q.q !== 'roleAssignee') {
    return sendAnswer(reply, apiError(400, 'ILLEGAL_ARGUMENT', `Unsupported finder: q=${q.q ?? ''}`));
  }
  return assetsOf(account, 'organization').filter(
    (o) => (!q.role || q.role === o.fields.role) && (!q.state || q.state === o.fields.state),
  );
}

function page(elements: JsonObject[], req: FastifyRequest): JsonObject {
  const q = queryParams(req);
  const start = Number(q.start ?? 0) || 0;
  const count = Number(q.count ?? 10) || 10;
  return {
    paging: { start, count, links: [], total: elements.length },
    elements: elements.slice(start, start + count),
  };
}

export function registerLinkedInIdentity(sim: Simulator): void {
  addRoute(sim, {
    method: 'GET',
    url: '/v2/userinfo',
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = authorize(req, reply, call, { versioned: false, anyScope: ['openid'], resource: '/userinfo' });
      if (isReply(auth)) return auth;
      const { account, token } = auth;
      const body: JsonObject = { sub: account.id, locale: { country: 'US', language: 'en' } };
      if (token.scopes.includes('profile')) {
        Object.assign(body, {
          name: account.name,
          given_name: account.fields.given_name ?? null,
          family_name: account.fields.family_name ?? null,
          picture: account.avatarUrl,
        });
      }
      if (token.scopes.includes('email')) Object.assign(body, { email: account.email, email_verified: true });
      return reply.send(body);
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v2/me',
    ops: ['profile'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = authorize(req, reply, call, {
        versioned: false,
        anyScope: ['r_basicprofile', 'r_liteprofile'],
        resource: '/me',
      });
      if (isReply(auth)) return auth;
      const { account } = auth;
      const locale = { country: 'US', language: 'en' };
      return reply.send({
        id: account.id,
        localizedFirstName: account.fields.given_name ?? '',
        localizedLastName: account.fields.family_name ?? '',
        firstName: { localized: { en_US: account.fields.given_name ?? '' }, preferredLocale: locale },
        lastName: { localized: { en_US: account.fields.family_name ?? '' }, preferredLocale: locale },
        vanityName: account.username,
        localizedHeadline: account.fields.headline ?? '',
        profilePicture: { displayImage: `urn:li:digitalmediaAsset:${account.id}` },
      });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/rest/organizationAcls',
    ops: ['pages'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = authorize(req, reply, call, {
        versioned: true,
        anyScope: ORG_SCOPES,
        resource: '/organizationAcls',
      });
      if (isReply(auth)) return auth;
      const orgs = aclElements(req, reply, auth.account);
      if (!Array.isArray(orgs)) return orgs;
      return reply.send(
        page(
          orgs.map((o) => acl(auth.account, o, 'organization')),
          req,
        ),
      );
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/v2/organizationalEntityAcls',
    ops: ['pages'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = authorize(req, reply, call, {
        versioned: false,
        anyScope: ORG_SCOPES,
        resource: '/organizationalEntityAcls',
      });
      if (isReply(auth)) return auth;
      const orgs = aclElements(req, reply, auth.account);
      if (!Array.isArray(orgs)) return orgs;
      // Always decorated, as if the caller sent the usual `organizationalTarget~(...)` projection.
      const elements = orgs.map((o) => ({
        ...acl(auth.account, o, 'organizationalTarget'),
        'organizationalTarget~': organization(o),
      }));
      return reply.send(page(elements, req));
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/rest/organizationsLookup',
    ops: ['pages'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = authorize(req, reply, call, {
        versioned: true,
        anyScope: ORG_SCOPES,
        resource: '/organizationsLookup',
      });
      if (isReply(auth)) return auth;
      const match = /^List\(([^)]*)\)$/.exec(queryParams(req).ids ?? '');
      if (!match) return sendAnswer(reply, apiError(400, 'ILLEGAL_ARGUMENT', 'ids must be a Rest.li 2.0 List(...)'));
      const results: JsonObject = {};
      const statuses: JsonObject = {};
      const errors: JsonObject = {};
      const ids = (match[1] ?? '').split(',').map(decodeURIComponent).filter(Boolean);
      for (const id of ids) {
        const org = assetsOf(auth.account, 'organization').find((o) => o.id === id);
        if (org) {
          results[id] = organization(org);
          statuses[id] = 200;
        } else {
          errors[id] = { status: 404, message: 'Not Found' };
          statuses[id] = 404;
        }
      }
      return reply.send({ results, statuses, errors });
    },
  });

  addRoute(sim, {
    method: 'GET',
    url: '/rest/organizations/:id',
    ops: ['pages'],
    surface: 'api',
    handler: (req, reply, call) => {
      const auth = authorize(req, reply, call, { versioned: true, anyScope: ORG_SCOPES, resource: '/organizations' });
      if (isReply(auth)) return auth;
      const id = (req.params as { id: string }).id;
      const org = assetsOf(auth.account, 'organization').find((o) => o.id === id);
      if (!org)
        return sendAnswer(
          reply,
          apiError(403, 'ACCESS_DENIED', `Not enough permissions to access organization ${id}`, 100),
        );
      return reply.send(organization(org));
    },
  });
}
