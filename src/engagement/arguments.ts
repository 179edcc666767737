// The engagement reads' and the reply's arguments, parsed once for REST (routes/engagement.ts) and the tools
// (get_user_posts, get_comments, get_unified_analytics, reply_to_comment): each network's destination filter comes from
// its `reads` in the registry (facebook_page_ids, linkedin_organization_ids, board_id, youtube_channel_id), so whatever
// network the registry holds is filtered the same way on every surface.
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { readTargetId, type NetworkContract } from '../platforms/contract.ts';
import { splitList } from '../platforms/arguments.ts';
import type { PlatformRegistry } from '../platforms/registry.ts';
import type { Platform } from '../platforms/slugs.ts';
import type { DestinationFilter } from './types.ts';

type Contracts = readonly Pick<NetworkContract, 'reads'>[];
type Args = Record<string, unknown>;
const listOf = (v: unknown) => splitList(v as string | string[] | undefined);

/** Each network's destination filter as an optional argument of the read routes and tools, `item` its value. */
export function destinationFilterShape<T extends z.ZodType>(
  networks: Contracts,
  item: T,
): Record<string, z.ZodOptional<T>> {
  return Object.fromEntries(
    networks.flatMap((n) =>
      n.reads
        ? [[n.reads.param, item.optional().describe(`Only these ${n.reads.kind}s (repeatable or comma-separated).`)]]
        : [],
    ),
  );
}

/** The single destination id a reply names on networks that need one (facebook_page_id, …), optional. */
export function replyDestinationShape(networks: Contracts): Record<string, z.ZodOptional<z.ZodString>> {
  return Object.fromEntries(
    networks.flatMap((n) => (n.reads?.replyParam ? [[n.reads.replyParam, z.string().min(1).max(500).optional()]] : [])),
  );
}

/** The destination filter of a read from its arguments, one list per network that has one. */
export function destinationFilter(networks: { networks: Contracts }, args: Args): DestinationFilter {
  return Object.fromEntries(
    networks.networks.flatMap((n) => (n.reads ? [[n.reads.param, listOf(args[n.reads.param])]] : [])),
  );
}

/** The one page / organization / channel id a single-post read names, from the network's filter argument. */
export function destinationOf(
  networks: Pick<PlatformRegistry, 'network'>,
  platform: Platform,
  args: Args,
): string | undefined {
  const reads = networks.network(platform).reads;
  if (!reads) return undefined;
  const [first] = listOf(args[reads.param]);
  return first === undefined ? undefined : readTargetId(reads, first);
}

/** A single-post read names its post and its network together, or neither. */
export function postAndPlatform(
  postId: string | undefined,
  platform: string | undefined,
): { postId: string; platform: string } | null {
  if (postId === undefined && platform === undefined) return null;
  if (postId === undefined || platform === undefined)
    throw new AppError('bad_request', { error: 'VALIDATION_ERROR', message: 'post_id and platform go together.' });
  return { postId, platform };
}

/** The network of a reply: one whose comments Herald can answer (400 PLATFORM_NOT_SUPPORTED otherwise). */
export function replyPlatform(networks: Pick<PlatformRegistry, 'has' | 'slugs' | 'get'>, raw: string): Platform {
  const platform = raw.trim().toLowerCase();
  if (!networks.has(platform) || !networks.get(platform).engagement?.comments) {
    const supported = networks.slugs.filter((s) => networks.get(s).engagement?.comments);
    throw new AppError('bad_request', {
      error: 'PLATFORM_NOT_SUPPORTED',
      message: `Replying to comments is not supported on '${raw}'. Supported: ${supported.join(', ')}`,
    });
  }
  return platform;
}

/** A reply's text: present and not blank. */
export function replyText(text: string | undefined): string {
  if (text === undefined || !text.trim())
    throw new AppError('bad_request', {
      error: 'VALIDATION_ERROR',
      message: 'text is required and must not be empty.',
    });
  return text;
}

/** The destination a reply names on its network (facebook_page_id, …), when the network needs one. */
export function replyDestination(
  networks: Pick<PlatformRegistry, 'network'>,
  platform: Platform,
  pick: (name: string) => string | undefined,
): string | undefined {
  const param = networks.network(platform).reads?.replyParam;
  return param ? pick(param) : undefined;
}
