// upload_media as a GPT action: the files a ChatGPT user attaches (openaiFileIdRefs, objects with a download_link)
// are downloaded through the outbound address policy into the media library, and their media ids publish. The
// "OpenAI file host" is a loopback HTTPS server reachable only through the URL-import tests' mechanism (a table
// resolver, its certificate and HERALD_FETCH_ALLOW_HOSTS); a private address is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/harness.ts';
import { mediaHost, png, storagePath } from '../media-routes/helpers.ts';
import type { RunningServer } from '../media/helpers/test-server.ts';

let h: Harness;
let host: RunningServer;
let base: string;
let image: Buffer;
let u: TestUser;
let auth: Record<string, string>;

beforeAll(async () => {
  image = await png(40, 30);
  const files = await mediaHost((req, res) => {
    const path = new URL(req.url ?? '/', 'https://media.test').pathname;
    if (path.startsWith('/file-'))
      return void res
        .writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': image.length })
        .end(image);
    res.writeHead(404).end('no');
  });
  host = files.server;
  base = files.base;
  h = await createHarness({
    env: { HERALD_FETCH_ALLOW_HOSTS: 'media.test' },
    overrides: { media: { fetch: files.fetch } },
  });
  u = await h.signup();
  auth = { authorization: `Bearer ${await h.createKey(u, 'full')}` };
});
afterAll(async () => {
  await h?.close();
  await host?.close();
});

const upload = (payload: unknown) =>
  h.req({ method: 'POST', url: '/unified/gpt-actions/upload_media', headers: auth, payload: payload as object });
const ref = (name: string, link: string, mime = 'image/png') => ({
  name,
  id: `file-${name}`,
  mime_type: mime,
  download_link: link,
});

describe('upload_media with files attached in ChatGPT', () => {
  it('stores each attached file under its name and answers media ids that publish', async () => {
    const res = await upload({
      openaiFileIdRefs: [ref('Harvest.png', `${base}/file-abc?sig=1`), ref('Second.png', `${base}/file-def`)],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, errors: [] });
    expect(body.media_ids).toHaveLength(2);
    expect(body.media[0]).toMatchObject({ media_type: 'image', filename: 'Harvest.png' });
    expect(body).not.toHaveProperty('curl_command');
    const stored = await h.req({ method: 'GET', url: storagePath(body.media[0].public_url) });
    expect(stored.rawPayload.equals(image)).toBe(true);
    const item = (await h.req({ method: 'GET', url: `/media/${body.media_ids[1]}`, headers: auth })).json();
    expect(item).toMatchObject({ media_id: body.media_ids[1], width: 40, height: 30, original_filename: 'Second.png' });
  });

  it('refuses a link to a private address (and a failed file does not lose the others); no link at all is a clear answer', async () => {
    const res = await upload({
      openaiFileIdRefs: [ref('Inside.png', 'https://10.0.0.8/file-x'), ref('Good.png', `${base}/file-ok`)],
    });
    const body = res.json();
    expect(body).toMatchObject({ success: true, media_ids: [expect.any(String)] });
    expect(body.errors).toEqual([
      { index: 0, name: 'Inside.png', error: expect.stringContaining('not a public internet address') },
    ]);
    expect(body.message).toContain('Inside.png');

    const none = (
      await upload({ openaiFileIdRefs: [ref('Meta.png', 'https://169.254.169.254/latest/meta-data')] })
    ).json();
    expect(none).toMatchObject({ success: false, error: 'bad_request' });
    expect(none).not.toHaveProperty('media_ids');
    expect(none.message).toContain('not a public internet address');
    const bare = (await upload({ openaiFileIdRefs: ['file-only-an-id'] })).json();
    expect(bare).toMatchObject({ success: false });
    expect(bare.message).toContain('download link');
  });

  it('refuses what is not an image or a video, and without files or file_path says what to do', async () => {
    const pdf = (await upload({ openaiFileIdRefs: [ref('Notes.pdf', `${base}/file-pdf`, 'application/pdf')] })).json();
    expect(pdf).toMatchObject({ success: false });
    expect(pdf.message).toContain('Only images and videos');
    const empty = (await upload({})).json();
    expect(empty).toMatchObject({ success: false, error: 'bad_request' });
    expect(empty.message).toContain('Attach');
    // A file path still answers the upload URL and curl command, as on MCP.
    expect((await upload({ file_path: '/tmp/a.png' })).json()).toMatchObject({
      success: true,
      curl_command: expect.stringContaining('/media/upload'),
    });
  });

  it('the action document declares openaiFileIdRefs as ChatGPT expects: an array of strings', async () => {
    const doc = (await h.req({ method: 'GET', url: '/openapi/chatgpt-actions.json' })).json();
    const op = doc.paths['/unified/gpt-actions/upload_media'].post;
    expect(op.requestBody.content['application/json'].schema.properties.openaiFileIdRefs).toMatchObject({
      type: 'array',
      items: { type: 'string' },
    });
    expect(op.requestBody.content['application/json'].schema.required ?? []).not.toContain('file_path');
    expect(op['x-openai-isConsequential']).toBe(true);
  });
});
