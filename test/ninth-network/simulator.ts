// Quill's simulator: sessions from an app password, the account, and posts (kept in memory, one per
// idempotency key, as a network that honours one would).
import type { FastifyInstance } from 'fastify';
import type { SandboxSimulator } from '../../src/sandbox/core/simulator.ts';
import { QUILL, QUILL_PASSWORD } from './network.ts';

export interface QuillPost {
  id: string;
  text: string;
  media: string[];
  spoiler: string | null;
}

export function quillSimulator(): SandboxSimulator & { posts: QuillPost[] } {
  const posts: QuillPost[] = [];
  const plugin = async (app: FastifyInstance) => {
    const handleOf = (auth: string | undefined) =>
      auth?.startsWith('Bearer tok-') ? auth.slice('Bearer tok-'.length) : null;
    app.post('/session', async (req, reply) => {
      const { handle, password } = req.body as { handle: string; password: string };
      if (password !== QUILL_PASSWORD) return reply.code(401).send({ error: 'bad login' });
      return { token: `tok-${handle}` };
    });
    app.get('/me', async (req, reply) => {
      const handle = handleOf(req.headers.authorization);
      return handle ? { id: `acct-${handle}`, handle } : reply.code(401).send({ error: 'no session' });
    });
    app.post('/posts', async (req, reply) => {
      if (!handleOf(req.headers.authorization)) return reply.code(401).send({ error: 'no session' });
      const body = req.body as { text: string; media: string[]; spoiler: string | null; idempotency_key: string };
      const id = `q-${body.idempotency_key}`;
      if (!posts.some((p) => p.id === id))
        posts.push({ id, text: body.text, media: body.media, spoiler: body.spoiler });
      return { id, url: `https://quill.invalid/p/${id}` };
    });
  };
  return { slug: QUILL, plugin, baseUrls: (base) => ({ api: base }), posts };
}
