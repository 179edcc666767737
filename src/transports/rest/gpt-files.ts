// Files a ChatGPT user attaches, for the `upload_media` GPT action. A GPT action receives files through a request
// body property named `openaiFileIdRefs`, which its OpenAPI document declares as an array of strings; ChatGPT then
// sends an array of objects `{name, id, mime_type, download_link}`, the link being a short-lived URL of the file
// (OpenAI's GPT Actions documentation, "Sending files"). Herald downloads each link through its one outbound address
// policy (the media URL import: https only, public addresses only, size and time limits) into the media library
// and answers the media ids. Without files the action is the shared tool: an upload URL and a curl command.
import { z } from 'zod';
import { AppError, type Detail } from '../../errors.ts';
import { assertMediaPlatformAllowed, parseMediaPlatform, type MediaKind } from '../../media/records.ts';
import type { AppContext } from '../../app-context.ts';
import { toolsFor } from '../../tools/index.ts';
import { defineTool, type Tool, type ToolContext, type ToolResult } from '../../tools/tool.ts';

/** The body property ChatGPT fills with the files the user attached. */
export const OPENAI_FILE_REFS = 'openaiFileIdRefs';
/** Files per call: what one conversation turn reasonably attaches. */
const MAX_FILES = 10;

const fileRef = z.object({
  name: z.string().max(255).nullish(),
  id: z.string().max(255).nullish(),
  mime_type: z.string().max(255).nullish(),
  download_link: z.string().max(4096),
});
const refs = z
  .array(z.union([fileRef, z.string().max(4096)]))
  .max(MAX_FILES)
  .optional()
  .describe(
    'Files the user attached in ChatGPT (ChatGPT fills this in). Each is imported into the media library; the answer lists their media ids for publish.',
  );

/** The document declares the property as ChatGPT expects it: an array of strings (ChatGPT then sends objects). */
export const OPENAI_FILE_REFS_SCHEMA = {
  type: 'array',
  items: { type: 'string' },
  maxItems: MAX_FILES,
  description: refs.description,
} as const;

type Ref = z.infer<typeof fileRef> | string;
const IMAGE_EXT = /\.(jpe?g|png|gif|webp)$/i;
const VIDEO_EXT = /\.(mp4|mov|m4v|avi|mkv|webm)$/i;

function kindOf(
  ref: { name?: string | null | undefined; mime_type?: string | null | undefined },
  asked: MediaKind | undefined,
): MediaKind | null {
  const mime = ref.mime_type?.toLowerCase() ?? '';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (asked) return asked;
  if (ref.name && IMAGE_EXT.test(ref.name)) return 'image';
  if (ref.name && VIDEO_EXT.test(ref.name)) return 'video';
  return null;
}

function reason(detail: Detail): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map((e) => e.msg).join('; ');
  const d = detail as Record<string, unknown>;
  return typeof d.message === 'string' ? d.message : 'the file could not be stored';
}

/** Imports each attached file; one that fails is named with its reason and does not lose the others. */
async function importFiles(
  ctx: ToolContext,
  files: Ref[],
  asked: MediaKind | undefined,
  platform: string | undefined,
): Promise<ToolResult> {
  const { app, caller } = ctx;
  const media = platform?.trim() ? parseMediaPlatform(platform, app.platforms.slugs) : null;
  assertMediaPlatformAllowed(caller.principal.scope, media);
  const target = await app.media.target(caller.principal, media);
  const stored: { media_id: string; media_type: string; filename: string; public_url: string }[] = [];
  const errors: { index: number; name: string | null; error: string }[] = [];
  for (const [index, raw] of files.entries()) {
    const ref = typeof raw === 'string' ? { name: null, download_link: raw } : raw;
    const name = ref.name ?? null;
    const loc = ['body', OPENAI_FILE_REFS, index];
    try {
      if (!/^https?:\/\//i.test(ref.download_link))
        throw new AppError('bad_request', 'ChatGPT sent no download link for this file; attach it again.');
      const kind = kindOf(ref, asked);
      if (!kind) throw new AppError('bad_request', 'Only images and videos can be stored as media.');
      // Downloaded through the outbound address policy, then stored under the name the user gave the file.
      const got = await app.media.readUrl(caller.principal, ref.download_link, kind, loc);
      const row = await app.media.add(
        target,
        {
          file: {
            path: got.path,
            size: got.size,
            filename: name ?? got.name ?? `file.${kind === 'image' ? 'jpg' : 'mp4'}`,
          },
        },
        kind,
        loc,
      );
      const item = app.media.item(row);
      stored.push({
        media_id: item.media_id,
        media_type: item.media_type,
        filename: item.original_filename ?? item.filename,
        public_url: item.public_url,
      });
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      errors.push({ index, name, error: reason(err.body().detail) });
    }
  }
  const ids = stored.map((s) => s.media_id);
  const failed = errors.map((e) => `${e.name ?? `file ${e.index + 1}`}: ${e.error}`).join('; ');
  if (!stored.length) return { success: false, error: 'bad_request', message: `No file was stored. ${failed}`, errors };
  return {
    success: true,
    media: stored,
    media_ids: ids,
    errors,
    message: `Stored ${stored.length} file${stored.length === 1 ? '' : 's'}; give the media ids to publish (default_image_id, image_ids or video_id).${failed ? ` Not stored: ${failed}` : ''}`,
  };
}

/** The shared upload_media tool as a GPT action: with attached files it imports them, without it is the tool. */
export function withChatGptFiles(tool: Tool): Tool {
  const shape = tool.input.shape as Record<string, z.ZodType>;
  const input = tool.input.extend({
    file_path: (shape.file_path as z.ZodString).optional(),
    [OPENAI_FILE_REFS]: refs,
  });
  return defineTool({
    ...tool,
    description:
      'Store images or videos the user attached in ChatGPT in the media library; answers their media_ids for publish. Without attachments: an upload URL and curl command for a local file_path. Free.',
    input,
    // Attached files are written to the media library (and downloaded from OpenAI's file links).
    annotations: { ...tool.annotations, readOnly: false, idempotent: false, openWorld: true },
    async run(ctx, args) {
      const a = args as { file_path?: string; media_type?: MediaKind; platform?: string; [OPENAI_FILE_REFS]?: Ref[] };
      const files = a[OPENAI_FILE_REFS] ?? [];
      if (files.length) return importFiles(ctx, files, a.media_type, a.platform);
      if (!a.file_path)
        throw new AppError(
          'bad_request',
          'Attach the image or video in ChatGPT, or give file_path for a file on your own machine.',
        );
      return tool.run(ctx, args as never);
    },
  });
}

/** The tools served as GPT actions: the GPT surface's, upload_media taking attached files. */
export function gptActionTools(app: AppContext): Tool[] {
  return toolsFor('gpt', app).map((t) => (t.name === 'upload_media' ? withChatGptFiles(t) : t));
}
