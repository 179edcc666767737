// /openapi.json is a valid and complete OpenAPI 3.1 document that clients can generate code from: Redocly's
// recommended rules find nothing in it (no error, no warning), swagger-parser dereferences and validates it, every
// operation has a unique camelCase operationId and a described success response, and the types openapi-typescript
// generates from it compile under tsc together with a consumer of a couple of operations.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.ts';
import { lintOpenApi, validateOpenApi } from '../helpers/openapi-lint.ts';

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { description: string }>;
}
interface Doc {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

let h: Harness;
let doc: Doc;
beforeAll(async () => {
  h = await createHarness();
  doc = (await h.req({ method: 'GET', url: '/openapi.json' })).json() as Doc;
});
afterAll(() => h?.close());

const operations = (d: Doc) =>
  Object.entries(d.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );

/** Operations without a camelCase operationId, and operationIds used more than once. */
function operationIdProblems(d: Doc): string[] {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const { where, op } of operations(d)) {
    const id = op.operationId;
    if (!id || !/^[a-z][A-Za-z0-9]*$/.test(id))
      problems.push(`${where}: operationId ${JSON.stringify(id)} is not camelCase`);
    else if (seen.has(id)) problems.push(`${where}: operationId ${id} is also ${seen.get(id)}'s`);
    else seen.set(id, where);
  }
  return problems;
}

/** Type errors of `files` (name → source), compiled together in a directory of their own. */
function typeErrors(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'herald-openapi-types-'));
  try {
    for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
    const program = ts.createProgram(
      Object.keys(files).map((name) => join(dir, name)),
      {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        allowImportingTsExtensions: true,
        types: [],
      },
    );
    return ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file ? d.file.fileName.slice(dir.length + 1) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Uses the text post route's request body and response, and a shared error body, as a web client would.
const CONSUMER = `
import type { components, operations, paths } from './herald-api.ts';

type TextPostBody = paths['/unified/post/text']['post']['requestBody']['content']['application/json'];
type TextPostResult = operations['publishTextPost']['responses'][200]['content']['application/json'];
type DraftNotFound = operations['getDraft']['responses'][404]['content']['application/json'];

export const body: TextPostBody = { platforms: ['bluesky'], default_text: 'Hello' };
// @ts-expect-error default_text is required
export const incomplete: TextPostBody = { platforms: ['bluesky'] };
export const published = (r: TextPostResult): boolean | undefined => r.success;
export const notFound: DraftNotFound = { detail: 'Draft not found' };
export const invalid: components['schemas']['ValidationError'] = { detail: [{ loc: ['body', 'default_text'], msg: 'Field required', type: 'missing' }] };
`;

describe('the OpenAPI document /openapi.json', () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    expect(await lintOpenApi(doc)).toEqual([]);
  });

  it('dereferences and validates with swagger-parser (every $ref resolves)', async () => {
    await expect(validateOpenApi(doc)).resolves.toBeUndefined();
    // The validator does fail on a dangling reference.
    const broken = structuredClone(doc);
    broken.paths['/healthz']!.get!.responses['200'] = {
      description: 'x',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } },
    } as never;
    await expect(validateOpenApi(broken)).rejects.toThrow(/Missing/);
  });

  it('names every operation with a unique camelCase operationId, and the check finds a missing or repeated one', () => {
    expect(operations(doc).length).toBeGreaterThan(60);
    expect(operationIdProblems(doc)).toEqual([]);
    expect(doc.paths['/unified/post/text']!.post!.operationId).toBe('publishTextPost');
    const broken = structuredClone(doc);
    delete broken.paths['/healthz']!.get!.operationId;
    broken.paths['/readyz']!.get!.operationId = 'publishTextPost';
    expect(operationIdProblems(broken)).toEqual([
      'GET /healthz: operationId undefined is not camelCase',
      "POST /unified/post/text: operationId publishTextPost is also GET /readyz's",
    ]);
  });

  it('describes every success response, names its server, and marks public routes as needing no credential', () => {
    for (const { where, op } of operations(doc)) {
      for (const [status, res] of Object.entries(op.responses)) {
        if (status.startsWith('2')) expect(res.description, `${where} ${status}`).not.toBe('Default Response');
      }
      expect(op.security, where).toBeDefined();
    }
    expect(doc.servers).toEqual([{ url: h.config.publicUrl, description: 'This Herald instance' }]);
    expect(doc.paths['/auth/login']!.post!.security).toEqual([]);
    expect(doc.paths['/auth/me']!.get!.security).toEqual([{ Bearer: [] }]);
  });

  it('generates TypeScript types with openapi-typescript that compile with a consumer of them', {
    timeout: 180_000,
  }, async () => {
    const types = astToString(await openapiTS(doc as never));
    expect(types).toContain('publishTextPost');
    expect(typeErrors({ 'herald-api.ts': types, 'consumer.ts': CONSUMER })).toEqual([]);
    // The compiler does catch a consumer that misuses them.
    const misuse = `${CONSUMER}\nexport const wrong: TextPostBody = { platforms: 'bluesky', default_text: 1 };\n`;
    expect(typeErrors({ 'herald-api.ts': types, 'consumer.ts': misuse }).length).toBeGreaterThan(0);
  });
});
