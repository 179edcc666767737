// A ninth network, "Quill", defined in this one folder (contract, adapter and simulator): the proof that
// Herald learns a network from its contract alone. It connects with an app password, posts text or one
// image, and takes a per-network override { quill_text, spoiler }.
import { z } from 'zod';
import { defineNetwork } from '../../src/platforms/contract.ts';
import { postText } from '../../src/platforms/fields.ts';
import type { Platform } from '../../src/platforms/slugs.ts';
import { PlatformError, type AdapterFactory, type Capabilities, type TokenSet } from '../../src/platforms/types.ts';

// Platform lists the built-in slugs for typing; at run time the registry decides what exists.
export const QUILL = 'quill' as Platform;
export const QUILL_PASSWORD = 'quill-app-pass';

const capabilities: Capabilities = {
  postTypes: ['text', 'image'],
  text: { max: 50, unit: 'graphemes' },
  asyncProcessing: false,
};

const quillAdapter: AdapterFactory = (deps) => {
  const api = deps.config.urls.api!;
  const call = async (method: 'GET' | 'POST', path: string, token?: string, json?: unknown) => {
    const res = await deps.http.request(QUILL, {
      method,
      url: `${api}${path}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      json,
    });
    if (res.status >= 400)
      throw new PlatformError(
        QUILL,
        res.status === 401 ? 'reauth_required' : 'invalid_content',
        `Quill answered ${res.status}`,
        { status: res.status },
      );
    return res.data as Record<string, string>;
  };
  const account = async (tokens: TokenSet) => {
    const me = await call('GET', '/me', tokens.accessToken);
    return { id: me.id!, name: me.handle!, username: me.handle!, destinations: [], slice: { handle: me.handle } };
  };
  return {
    platform: QUILL,
    displayName: 'Quill',
    capabilities,
    auth: {
      kind: 'app_password',
      refusePassword: (value) => (value.startsWith('quill-') ? null : 'Quill app passwords start with quill-.'),
      login: async ({ handle, appPassword }) => ({
        accessToken: (await call('POST', '/session', undefined, { handle, password: appPassword })).token!,
      }),
      refresh: async (tokens) => tokens,
    },
    configured: true,
    fetchAccount: account,
    publisher: {
      async publish(tokens, req, journal) {
        const done = journal.steps.post_id;
        if (done) return { state: 'published', postId: done, permalink: `${api}/posts/${done}` };
        const post = await call('POST', '/posts', tokens.accessToken, {
          text: req.text,
          media: req.media.map((m) => m.url),
          spoiler: req.options.spoiler ?? null,
          idempotency_key: req.targetId,
        });
        await journal.record('post_id', post.id!);
        return { state: 'published', postId: post.id!, permalink: post.url ?? null };
      },
    },
  };
};

const override = z.object({ quill_text: postText().optional(), spoiler: z.string().max(100).optional() });

export const network = defineNetwork({
  slug: QUILL,
  displayName: 'Quill',
  // What people type for it in the agent's direct commands, besides "quill".
  aliases: ['ql', 'quill app'],
  authKind: 'app_password',
  capabilities,
  media: {
    imageFormats: ['jpeg', 'png'],
    maxImageBytes: 5 * 1024 * 1024,
    carousel: { min: 0, max: 0 },
    videoFormats: [],
    maxVideoBytes: 0,
    videoSeconds: { min: 0, max: 0 },
  },
  override,
  hosts: { api: 'https://api.quill.invalid' },
  adapter: quillAdapter,
  plan({ o, base, caption, requireMedia, media, target }) {
    const text = o.quill_text ?? base;
    caption(text, o.quill_text !== undefined ? 'quill_text' : 'default_text');
    const m = media();
    requireMedia(m);
    target({ text, media: m, options: o.spoiler ? { spoiler: o.spoiler } : {} });
  },
});
