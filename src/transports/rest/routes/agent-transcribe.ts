// POST /workspace-agent/website/transcribe: a voice message (multipart `file`) → its transcript, for the client to
// send as a chat turn's `text` (interface "Agent chat", contract-gaps §9). The file is streamed to a temp file within
// HERALD_AI_TRANSCRIBE_MAX_BYTES, checked by its bytes, sent to the transcription model, and removed whatever happens.
// No credits: the interface's Limits table prices none, and the chat turn the transcript becomes pays agent_turn.
import { readFile } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { AppError } from '../../../errors.ts';
import { AUDIO_FORMATS_TEXT, audioFormatOf } from '../../../media/audio.ts';
import { assertContentLength, readForm, type FormFile, type FormPart } from '../../../media/form.ts';
import { formatBytes } from '../../../media/records.ts';
import { principalOf } from '../access.ts';
import { errorResponses } from '../openapi.ts';
import { workspaceSecurity } from '../schemas.ts';

const FIELD = 'file';
/** Room for the form's framing and its small text fields on top of the file. */
const FORM_OVERHEAD = 64 * 1024;

const field = (name: string, msg: string, type = 'value_error') =>
  new AppError('validation', [{ loc: ['body', name], msg, type }]);

const transcribeForm = z.object({
  file: z
    .file()
    .describe(
      `The recording: ${AUDIO_FORMATS_TEXT} (read from its bytes, not its name or type). At most HERALD_AI_TRANSCRIBE_MAX_BYTES (default 25 MiB).`,
    ),
  workspace_id: z.uuid().optional().describe("The caller's workspace, if sent: another one is 403."),
});

export async function agentTranscribeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const speech = ctx.speech;
  const max = speech.maxBytes;
  const tooLarge = () =>
    new AppError(
      'payload_too_large',
      `Audio file too large: the limit is ${formatBytes(max)} (${max} bytes, HERALD_AI_TRANSCRIBE_MAX_BYTES).`,
    );
  // Two files, so a second one gets a worded 422 instead of busboy's limit.
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: max + 1, files: 2, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 100 },
  });
  // An answer given before the body was read in full (401, 413, 503): early-answers.ts.
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/workspace-agent/website/transcribe',
    {
      config: { access: { kind: 'workspace' } },
      onRequest: async (req) => assertContentLength(req.headers, max + FORM_OVERHEAD),
      schema: {
        tags: ['agent'],
        operationId: 'transcribeVoiceMessage',
        summary: "A voice message's transcript, to send as the agent chat's text",
        responseDescription: 'The transcript.',
        description:
          `multipart/form-data with the recording in \`file\` (${AUDIO_FORMATS_TEXT}). Needs a speech-to-text model (HERALD_AI_TRANSCRIBE_MODEL): ` +
          'without one, 503 with a detail naming the settings. 413 over HERALD_AI_TRANSCRIBE_MAX_BYTES; 422 for a file that is not audio ' +
          '(type audio_format), a container without sound (audio_missing), or no speech recognised (no_speech: the model heard nothing); ' +
          '502 when the model fails. No credits are spent.',
        consumes: ['multipart/form-data'],
        documentedBody: { 'multipart/form-data': transcribeForm },
        security: workspaceSecurity,
        response: {
          200: z.object({ success: z.boolean(), transcript: z.string().describe('What was said; never empty') }),
          ...errorResponses(502, 503),
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      // Before a byte of audio is read: a server without a model says so at once.
      speech.assertConfigured();
      if (!req.isMultipart())
        throw new AppError('validation', [
          {
            loc: ['body'],
            msg: `Expected a multipart/form-data body with the recording in '${FIELD}'.`,
            type: 'content_type',
          },
        ]);
      const form = await readForm(req.parts() as AsyncIterable<FormPart>, {
        temp: ctx.media.temp,
        onField: (name, value) => {
          if (name === 'workspace_id' && value.trim().toLowerCase() !== p.workspaceId.toLowerCase())
            throw new AppError('forbidden', 'workspace does not match API key');
        },
        onFile: (name, f) => {
          if (name !== FIELD) throw field(name, `Unexpected file field '${name}'; send the recording in '${FIELD}'.`);
          if (f.files.length) throw field(FIELD, 'Send one recording per request.');
          return max;
        },
        tooLarge,
      });
      const files: FormFile[] = form.files;
      try {
        const file = files[0];
        if (!file) throw field(FIELD, `Field required: the recording in '${FIELD}'.`, 'missing');
        if (file.size === 0) throw field(FIELD, 'The recording is empty.', 'audio_empty');
        await audioFormatOf(file.path, FIELD);
        const transcript = await speech.transcribe(await readFile(file.path));
        if (!transcript)
          throw field(
            FIELD,
            'No speech was recognised in the recording (the transcript is empty). Record again, closer to the microphone.',
            'no_speech',
          );
        return { success: true, transcript };
      } finally {
        await ctx.media.temp.remove(...files.map((f) => f.path));
      }
    },
  );
}
