// Lints an OpenAPI document with Redocly's recommended ruleset (@redocly/openapi-core's lint API, offline).
import { createConfig, lintFromString } from '@redocly/openapi-core';

export interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  where: string;
}

export async function lintOpenApi(document: object): Promise<LintProblem[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'chatgpt-actions.json', config });
  return problems.map((p) => ({ ruleId: p.ruleId, severity: p.severity, message: p.message, where: p.location.map((l) => l.pointer).join(' ') }));
}
