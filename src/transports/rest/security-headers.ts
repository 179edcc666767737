// Headers every answer carries, set on the raw response as soon as a request is routed (so streamed and
// hijacked answers have them too): no MIME sniffing, and no page of Herald's inside another site's frame.
// The API reference (/docs) also says so in its Content-Security-Policy.
import type { ServerResponse } from 'node:http';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

const DOCS = /^\/docs(?:[/?#]|$)/;

export function setSecurityHeaders(res: Pick<ServerResponse, 'setHeader'>, url: string): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  if (DOCS.test(url)) res.setHeader('content-security-policy', "frame-ancestors 'none'");
}
