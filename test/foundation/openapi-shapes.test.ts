// The public /openapi.json documents real shapes: every JSON success response declares its fields
// (an object left open for network-specific fields still names its common ones), and the simulators
// mounted in sandbox mode are not part of Herald's API document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
};
interface Doc {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components?: { schemas?: Record<string, Schema> };
}

let h: Harness;
let doc: Doc;
beforeAll(async () => {
  h = await createHarness({ sandbox: true });
  doc = (await h.req({ method: 'GET', url: '/openapi.json' })).json() as Doc;
});
afterAll(() => h?.close());

/** Where a schema is an object that says nothing of its fields, the JSON path to it. */
function freeForm(s: Schema | undefined, doc: Doc, at: string, seen = new Set<string>()): string[] {
  if (!s) return [];
  if (s.$ref) {
    if (seen.has(s.$ref)) return [];
    seen.add(s.$ref);
    return freeForm(doc.components?.schemas?.[s.$ref.split('/').pop()!], doc, at, seen);
  }
  const alts = [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])];
  if (alts.length) return alts.flatMap((a) => freeForm(a, doc, at, seen));
  const isObject = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));
  const out: string[] = [];
  if (isObject) {
    const props = Object.entries(s.properties ?? {});
    const extra = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
    const extraDeclared =
      extra !== undefined &&
      (extra.type !== undefined ||
        extra.$ref !== undefined ||
        extra.anyOf !== undefined ||
        extra.properties !== undefined);
    if (!props.length && !extraDeclared) out.push(at || '(root)');
    for (const [k, v] of props) {
      // A post body stored for a network is the post routes' own body, documented on those routes.
      if (k === 'post_data') continue;
      out.push(...freeForm(v, doc, `${at}.${k}`, seen));
    }
    if (extra) out.push(...freeForm(extra, doc, `${at}[*]`, seen));
  }
  if (s.items) out.push(...freeForm(s.items, doc, `${at}[]`, seen));
  return out;
}

describe('the public OpenAPI document', () => {
  it('leaves the sandbox simulators out, though they answer', async () => {
    const paths = Object.keys(doc.paths);
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((p) => p.startsWith('/sandbox'))).toEqual([]);
    const sim = h.ctx.simulators[0]!;
    expect(sim).toBeDefined();
    const res = await h.req({ method: 'GET', url: `/sandbox/${sim.slug}/nothing-here` });
    expect(res.statusCode).not.toBe(200);
    expect(res.statusCode).not.toBe(500);
  });

  it('declares the fields of every JSON success response', () => {
    const offenders: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, r] of Object.entries(op.responses)) {
          if (!status.startsWith('2')) continue;
          const schema = r.content?.['application/json']?.schema;
          for (const where of freeForm(schema, doc, ''))
            offenders.push(`${method.toUpperCase()} ${path} ${status} ${where}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
