// The page a simulated post's permalink opens. Each simulator gives its posts permalinks as its network does, on the
// simulator's own base URL (e.g. `{base}/feed/update/{urn}/` for LinkedIn) and declares those paths (`postPages`);
// this serves them: the post's text, media and comments, every value escaped.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context.ts';
import { commentsOn, metricsOf, repliesTo } from './engagement.ts';
import { escapeHtml, errorPage } from './pages.ts';
import { current } from './processing.ts';
import type { PlatformSlice } from './store.ts';
import type { ObjectRecord, Platform } from './types.ts';

const decoded = (path: string): string => {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
};

/** A URL's path and query, decoded, so `urn:li:share:1` and `urn%3Ali%3Ashare%3A1` name the same page. */
function pathOf(url: string): { path: string; query: string } {
  const u = new URL(url, 'http://sandbox.invalid');
  return { path: decoded(u.pathname), query: u.search };
}

/**
 * The post whose permalink is this request's URL (its query too when the permalink has one, as YouTube's `watch?v=`).
 */
export function postAt(slice: PlatformSlice, url: string): ObjectRecord | undefined {
  const asked = pathOf(url);
  for (const post of slice.posts.values()) {
    if (typeof post.permalink !== 'string' || !post.permalink) continue;
    const link = pathOf(post.permalink);
    if (
      link.path === asked.path &&
      (!link.query || new URLSearchParams(link.query).toString() === new URLSearchParams(asked.query).toString())
    )
      return post;
  }
  return undefined;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A media reference: a link when it is a web address, else the network's id for it (URN, id, blob CID). */
function mediaItem(ref: string): string {
  if (/^https?:\/\//i.test(ref)) {
    const href = escapeHtml(ref);
    return /\.(jpe?g|png|gif|webp)(\?|$)/i.test(ref)
      ? `<li><a href="${href}"><img src="${href}" alt="" width="240"></a></li>`
      : `<li><a href="${href}">${href}</a></li>`;
  }
  return `<li><code>${escapeHtml(ref)}</code></li>`;
}

function thread(slice: PlatformSlice, comment: ObjectRecord, depth: number): string {
  const replies = depth < 5 ? repliesTo(slice, comment.id) : [];
  const nested = replies.length ? `<ul>${replies.map((r) => thread(slice, r, depth + 1)).join('')}</ul>` : '';
  return `<li><strong>${escapeHtml(str(comment.authorName))}</strong> <span class="note">${escapeHtml(comment.createdAt)}</span><p>${escapeHtml(str(comment.text))}</p>${nested}</li>`;
}

export function postPage(network: string, slice: PlatformSlice, post: ObjectRecord): string {
  const media = Array.isArray(post.media) ? post.media.filter((m): m is string => typeof m === 'string') : [];
  const comments = commentsOn(slice, post.id);
  const m = metricsOf(slice, post);
  const title = `${network} sandbox post`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f3f4f6;margin:0;padding:2rem}main{max-width:40rem;margin:auto;background:#fff;border-radius:12px;padding:1.5rem 2rem;box-shadow:0 1px 4px #0002}.text{white-space:pre-wrap}.note{color:#6b7280;font-size:.85rem}</style>
</head><body><main>
<h1>${escapeHtml(title)}</h1>
<p class="note">By <code>${escapeHtml(str(post.author))}</code> at ${escapeHtml(post.createdAt)} · id <code>${escapeHtml(post.id)}</code></p>
<div class="text" data-text>${escapeHtml(str(post.text))}</div>
${media.length ? `<h2>Media</h2><ul data-media>${media.map(mediaItem).join('')}</ul>` : ''}
<p class="note">${m.likes} likes · ${m.comments} comments · ${m.shares} shares · ${m.impressions} impressions</p>
<h2>Comments</h2>
${comments.length ? `<ul data-comments>${comments.map((c) => thread(slice, c, 0)).join('')}</ul>` : '<p class="note">No comments yet. Add some with <code>POST /sandbox/_seed</code>.</p>'}
<p class="note">A simulated post in Herald's sandbox: it does not exist on the real ${escapeHtml(network)}.</p>
</main></body></html>`;
}

/** Serves the pages of a simulator's posts at the permalink paths it declares (relative to its mount). */
export function servePostPages(
  app: FastifyInstance,
  ctx: SandboxContext,
  platform: Platform,
  network: string,
  paths: readonly string[],
): void {
  const handler = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const slice = ctx.store.slices[platform];
    const found = postAt(slice, req.url);
    const page = found
      ? postPage(network, slice, current(ctx, found))
      : errorPage(
          'Post not found',
          `No ${network} post in the sandbox has this link (it may have been deleted, or the sandbox reset).`,
        );
    return reply
      .code(found ? 200 : 404)
      .header('content-security-policy', "default-src 'none'; img-src * data:; style-src 'unsafe-inline'")
      .type('text/html; charset=utf-8')
      .send(page);
  };
  for (const path of paths) app.get(path, handler);
}
