// The connected member (/v2/userinfo, /v2/me) and the organizations they may post for (/rest/organizationAcls, then
// /rest/organizationsLookup for names and logos).
import type { AccountIdentity, AdapterDeps, Destination, TokenSet } from '../types.ts';
import { PlatformError } from '../types.ts';
import { linkedinUrls, restHeaders } from './config.ts';
import { linkedinOk } from './errors.ts';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;

// Roles that may post organic content as the organization (w_organization_social).
const POSTING_ROLES = new Set(['ADMINISTRATOR', 'CONTENT_ADMINISTRATOR']);
const ACL_PAGE_SIZE = 100;
const MAX_ACL_PAGES = 10;
const LOOKUP_BATCH = 50;

interface Org {
  id: string;
  role: string;
  name: string | null;
  vanityName: string | null;
  logoUrn: string | null;
  logoUrl: string | null;
}

/**
 * Like Promise.all, but waits for every call to settle before failing, so no request of a failed read is still in
 * flight (and counted against quotas) after the caller has moved on.
 */
async function settled<T extends readonly unknown[]>(calls: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const results = await Promise.allSettled(calls);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** A missing scope (403) means "nothing to show" for the optional parts of the profile, not a failed connect. */
async function unlessForbidden<T>(work: Promise<T>, fallback: T): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'permission') return fallback;
    throw err;
  }
}

export function linkedinAccount(deps: AdapterDeps): (tokens: TokenSet) => Promise<AccountIdentity> {
  const { apiBase } = linkedinUrls(deps);

  async function get(url: string, token: string, versioned: boolean, query?: Record<string, string>): Promise<Json> {
    const headers = versioned ? restHeaders(token) : { authorization: `Bearer ${token}` };
    const res = await deps.http.request('linkedin', { url, headers, ...(query ? { query } : {}) });
    return linkedinOk(res, 'api', deps.clock);
  }

  async function acls(token: string): Promise<Map<string, string>> {
    const roles = new Map<string, string>();
    for (let page = 0, start = 0; page < MAX_ACL_PAGES; page++, start += ACL_PAGE_SIZE) {
      const body = await get(`${apiBase}/rest/organizationAcls`, token, true, {
        q: 'roleAssignee',
        state: 'APPROVED',
        start: String(start),
        count: String(ACL_PAGE_SIZE),
      });
      const elements = Array.isArray(body.elements) ? body.elements.filter(isRecord) : [];
      for (const acl of elements) {
        const role = str(acl.role);
        const urn = str(acl.organization) ?? str(acl.organizationTarget);
        const id = urn?.match(/^urn:li:organization:(\d+)$/)?.[1];
        if (id && role && POSTING_ROLES.has(role) && !roles.has(id)) roles.set(id, role);
      }
      const total = isRecord(body.paging) && typeof body.paging.total === 'number' ? body.paging.total : 0;
      const more = total > 0 ? start + ACL_PAGE_SIZE < total : elements.length === ACL_PAGE_SIZE;
      if (!more) break;
    }
    return roles;
  }

  // Rest.li 2.0 wants `List(...)` unencoded; only the values inside are percent-encoded.
  async function lookup(token: string, ids: string[]): Promise<Json> {
    const results: Json = {};
    for (let i = 0; i < ids.length; i += LOOKUP_BATCH) {
      const list = ids
        .slice(i, i + LOOKUP_BATCH)
        .map(encodeURIComponent)
        .join(',');
      const body = await get(`${apiBase}/rest/organizationsLookup?ids=List(${list})`, token, true);
      if (isRecord(body.results)) Object.assign(results, body.results);
    }
    return results;
  }

  /**
   * A logo is an image URN; its URL comes from the Images API. Logos are decoration, so any failure leaves it null.
   * Older organizations carry `urn:li:digitalmediaAsset:X`, which the Images API knows as `urn:li:image:X`.
   */
  async function logoUrl(token: string, urn: string): Promise<string | null> {
    const image = urn.replace(/^urn:li:digitalmediaAsset:/, 'urn:li:image:');
    if (!image.startsWith('urn:li:image:')) return null;
    try {
      return str((await get(`${apiBase}/rest/images/${encodeURIComponent(image)}`, token, true)).downloadUrl);
    } catch {
      return null;
    }
  }

  async function organizations(token: string): Promise<Org[]> {
    const roles = await acls(token);
    if (roles.size === 0) return [];
    const found = await unlessForbidden(lookup(token, [...roles.keys()]), {});
    const orgs = [...roles].map(([id, role]): Org => {
      const o = found[id];
      const logo = isRecord(o) && isRecord(o.logoV2) ? (str(o.logoV2.cropped) ?? str(o.logoV2.original)) : null;
      return {
        id,
        role,
        name: isRecord(o) ? str(o.localizedName) : null,
        vanityName: isRecord(o) ? str(o.vanityName) : null,
        logoUrn: logo,
        logoUrl: null,
      };
    });
    await Promise.all(orgs.map(async (o) => (o.logoUrl = o.logoUrn ? await logoUrl(token, o.logoUrn) : null)));
    return orgs;
  }

  return async (tokens) => {
    const token = tokens.accessToken;
    // The member id comes first: a dead token then fails one call instead of three.
    const info = await get(`${apiBase}/v2/userinfo`, token, false);
    const [me, orgs] = await settled<[Json, Org[]]>([
      unlessForbidden(get(`${apiBase}/v2/me`, token, false), {}),
      unlessForbidden(organizations(token), []),
    ]);
    const sub = str(info.sub);
    if (!sub) throw new PlatformError('linkedin', 'transient', 'linkedin userinfo answered without a member id');
    const name = str(info.name) ?? ([str(info.given_name), str(info.family_name)].filter(Boolean).join(' ') || sub);
    const picture = str(info.picture);
    const vanity = str(me.vanityName);
    const personUrn = `urn:li:person:${sub}`;

    const destinations: Destination[] = orgs.map((o) => ({
      kind: 'organization',
      id: o.id,
      name: o.name ?? o.id,
      avatarUrl: o.logoUrl,
      meta: { urn: `urn:li:organization:${o.id}`, vanity_name: o.vanityName, role: o.role },
    }));

    return {
      id: sub,
      name,
      username: vanity,
      avatarUrl: picture,
      destinations,
      slice: {
        profile: {
          name,
          given_name: str(info.given_name) ?? str(me.localizedFirstName),
          family_name: str(info.family_name) ?? str(me.localizedLastName),
          vanity_name: vanity,
          profile_url: vanity ? `https://www.linkedin.com/in/${encodeURIComponent(vanity)}` : null,
          picture,
        },
        organizations: orgs.map((o) => ({
          page_id: `urn:li:organization:${o.id}`,
          numeric_id: o.id,
          page_name: o.name,
          localized_name: o.name,
          vanity_name: o.vanityName,
          logo_url: o.logoUrl,
          role: o.role,
        })),
        include_personal: true,
        selection_mode: false,
        connections: [
          { kind: 'personal', destination_key: personUrn, page_id: null, display_name: name, avatar_url: picture },
          ...orgs.map((o) => ({
            kind: 'page',
            destination_key: `urn:li:organization:${o.id}`,
            page_id: `urn:li:organization:${o.id}`,
            display_name: o.name ?? o.id,
            avatar_url: o.logoUrl,
          })),
        ],
      },
    };
  };
}
