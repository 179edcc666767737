// Pieces shared by the Meta publishing surfaces (Facebook Pages, Instagram, Threads): parameters that may come in
// the query, a form or a JSON body (arrays kept intact), ids, shortcodes and Graph's timestamp format.
import type { FastifyRequest } from 'fastify';
import { project } from './graph.ts';
import type { FieldSel, NodeType } from './graph.ts';
import { isObj, jsonBody, queryParams } from './http.ts';
import type { Obj } from './http.ts';
import { randomDigits, randomUrlSafe } from './ids.ts';
import type { JsonObject } from './types.ts';

/** Query and body merged (body wins), without flattening arrays or objects. */
export function graphInput(req: FastifyRequest): Obj {
  const body = jsonBody(req) ?? (isObj(req.body) ? req.body : {});
  return { ...queryParams(req), ...body };
}

/** A string parameter (numbers are accepted, as Graph does). */
export function param(input: Obj, key: string): string | undefined {
  const v = input[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** Graph booleans arrive as true/false, "true"/"false" or "1"/"0". */
export function flag(input: Obj, key: string): boolean | undefined {
  const v = param(input, key);
  if (v === undefined) return undefined;
  return v === 'true' || v === '1';
}

/** A list parameter sent as an array, a JSON array string or a comma-separated string. */
export function listParam(input: Obj, key: string): string[] | undefined {
  const v = input[key];
  if (Array.isArray(v)) return v.map(String);
  if (typeof v !== 'string') return undefined;
  const trimmed = v.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      return undefined;
    }
  }
  return trimmed === '' ? [] : trimmed.split(',').map((s) => s.trim());
}

/** Numeric media / container ids as Instagram and Threads issue them (17–18 digits starting with 17 or 18). */
export function metaMediaId(): string {
  return `${Math.random() < 0.5 ? '17' : '18'}${randomDigits(16)}`;
}

/** Shortcodes of permalinks (`/p/{shortcode}/`, `/post/{shortcode}`): 11 URL-safe characters, not the numeric id. */
export function shortcode(): string {
  return `C${randomUrlSafe(10)}`;
}

/** Graph's timestamp format: 2026-11-21T12:00:00+0000. */
export function graphTime(iso: string): string {
  return `${iso.slice(0, 19)}+0000`;
}

export const DAY_MS = 86_400_000;

/** Graph answers a node read with the requested fields plus the node's `id`, whether or not it was asked for. */
export function projectWithId(type: NodeType, sels: FieldSel[] | null, id: string): JsonObject {
  return { ...project(type, sels), id };
}
