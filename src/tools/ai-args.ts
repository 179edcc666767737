// What the AI tools share: the network list a model gives (array, comma list or "all"), checked like the AI routes.
import { z } from 'zod';
import { aiTargets } from '../ai/targets.ts';
import type { ToolContext } from './tool.ts';
import { splitList } from '../platforms/arguments.ts';

export const networksArg = z.union([z.array(z.string().max(40)).max(20), z.string().max(400)]);
export const perNetworkText = z.record(z.string().max(40), z.string().max(20_000));

/**
 * The networks to generate for: named ones must be in the key's scope (403 as REST's access hook), "all" means the
 * networks the key may use (narrowed by target_platforms); unknown names are 400. Checks the plan's AI feature first.
 */
export function generationTargets(
  ctx: ToolContext,
  named: string | string[] | undefined,
  narrow: string | string[] | undefined,
  known: readonly string[],
  extra: Readonly<Record<string, string>> = {},
): string[] {
  return aiTargets(
    ctx.caller.principal.scope,
    ctx.app.platforms.slugs,
    namedNetworks(ctx, named),
    splitList(narrow),
    known,
    extra,
  );
}

/**
 * The networks a call names, after the checks REST's access hook makes: the plan's AI feature, then the key's scope.
 */
export function namedNetworks(ctx: ToolContext, named: string | string[] | undefined): string[] {
  ctx.require('ai_composer_enabled');
  const slugs = ctx.app.platforms.slugs as readonly string[];
  const list = splitList(named);
  ctx.allow(list.map((s) => s.toLowerCase()).filter((s) => slugs.includes(s)));
  return list;
}
