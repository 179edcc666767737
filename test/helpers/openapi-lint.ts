// Checks of an OpenAPI document, offline, shared by the suites of /openapi.json and of the GPT Actions document:
// Redocly's recommended ruleset (@redocly/openapi-core's lint API), and @apidevtools/swagger-parser's validation.
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';

export interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  where: string;
}

/** Every problem Redocly's recommended rules find, errors and warnings alike. */
export async function lintOpenApi(document: object, name = 'openapi.json'): Promise<LintProblem[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: name, config });
  return problems.map((p) => ({
    ruleId: p.ruleId,
    severity: p.severity,
    message: p.message,
    where: p.location.map((l) => l.pointer).join(' '),
  }));
}

/** Dereferences and validates the document against the OpenAPI schema; throws on the first problem. */
export async function validateOpenApi(document: object): Promise<void> {
  // swagger-parser resolves $refs in place: it gets a copy.
  await SwaggerParser.validate(structuredClone(document) as never);
}
