import { z } from 'zod';
import { AppError } from '../errors.ts';
import { assertMediaPlatformAllowed, parseMediaPlatform } from '../media/records.ts';
import { defineTool } from './tool.ts';

const IMAGE_EXT = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp']);
const VIDEO_EXT = new Set(['mp4', 'mov', 'avi', 'mkv', 'webm', 'm4v']);

/** A word for a POSIX shell, single-quoted. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export const uploadMedia = defineTool({
  name: 'upload_media',
  description:
    "Get the upload URL and a ready curl command to put a local image or video (file_path on the caller's machine) into the workspace's media; run it to get the media_id for publish. Herald does not read the file. Free.",
  input: z.object({
    file_path: z.string().min(1).max(4096).describe("The file's path where the curl command will run."),
    media_type: z
      .enum(['image', 'video'])
      .optional()
      .describe('Default: from the file name (Herald also reads it from the bytes).'),
    platform: z
      .string()
      .max(40)
      .optional()
      .describe('The network the media is for (it is then stored for that connected account).'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  effect: {
    kind: 'write',
    held: 'never',
    why: "adds a file to this workspace's media library: nothing is published and nothing is removed",
  },
  credits: null,
  async run(ctx, args) {
    const { app, caller } = ctx;
    const path = args.file_path.trim();
    if (!path || /[\0\r\n]/.test(path)) throw new AppError('bad_request', 'file_path must be one line naming a file.');
    const platform = args.platform?.trim() ? parseMediaPlatform(args.platform, app.platforms.slugs) : null;
    assertMediaPlatformAllowed(caller.principal.scope, platform);
    const ext = /\.([a-z0-9]{2,5})$/i.exec(path)?.[1]?.toLowerCase();
    const mediaType =
      args.media_type ?? (ext && IMAGE_EXT.has(ext) ? 'image' : ext && VIDEO_EXT.has(ext) ? 'video' : undefined);
    const uploadUrl = `${app.config.publicUrl.replace(/\/+$/, '')}/media/upload`;
    // The credential is the caller's own, never echoed: an API key from $HERALD_API_KEY, a token from $HERALD_TOKEN.
    const byKey = caller.principal.kind === 'api_key';
    const auth = byKey
      ? '-H "X-API-Key: $HERALD_API_KEY"'
      : `-H "Authorization: Bearer $HERALD_TOKEN" -H ${shellQuote(`X-Workspace-Id: ${caller.principal.workspaceId}`)}`;
    const fields = [
      ...(mediaType ? [`-F media_type=${mediaType}`] : []),
      ...(platform ? [`-F platform=${platform}`] : []),
      `-F ${shellQuote(`media=@${path}`)}`,
    ];
    const curl = `curl -sS -X POST ${shellQuote(uploadUrl)} ${auth} ${fields.join(' ')}`;
    const max = mediaType === 'image' ? app.config.media.maxImageBytes : app.config.media.maxVideoBytes;
    return {
      success: true,
      upload_url: uploadUrl,
      method: 'POST',
      content_type: 'multipart/form-data',
      form_fields: {
        media: `@${path}`,
        ...(mediaType ? { media_type: mediaType } : {}),
        ...(platform ? { platform } : {}),
      },
      curl_command: curl,
      credential_env: byKey ? 'HERALD_API_KEY' : 'HERALD_TOKEN',
      max_bytes: max,
      message: `Run curl_command where the file is, with ${byKey ? 'HERALD_API_KEY set to your API key' : 'HERALD_TOKEN set to your access token'}. The answer's media_id goes to publish (default_image_id, video_id or image_ids).`,
    };
  },
});
