// The networks' HTTP client as Herald builds it: the base URLs a test configures are trusted like an operator's,
// everything else goes through the outbound address policy.
import type { Logger } from 'pino';
import { OutboundPolicy } from '../../src/net/outbound-policy.ts';
import { PlatformHttp, type FetchLike } from '../../src/platforms/http.ts';

export function configuredHttp(
  logger: Logger,
  urls: Record<string, string>,
  opts: { timeoutMs?: number; fetch?: FetchLike } = {},
): PlatformHttp {
  return new PlatformHttp({ logger, ...opts, policy: new OutboundPolicy({ trustedOrigins: Object.values(urls) }) });
}
