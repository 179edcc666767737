// A local OpenAI-compatible model server over real HTTP (what Ollama, vLLM, LM Studio and llama.cpp
// serve): Chat Completions with and without streaming, image generations and audio transcriptions.
// Tests choose each answer and read every request back.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface ChatRequest {
  model: string;
  messages: {
    role: string;
    content: string | null | { type: string; text?: string; image_url?: { url: string } }[];
    /** An assistant's tool calls (OpenAI format) and, on a `tool` message, the call it answers. */
    tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  /** The tools offered (OpenAI format). */
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }[];
  stream?: boolean;
}

/** A chat answer that calls tools instead of answering with text (streamed as `tool_calls` deltas when asked to stream). */
export interface ToolCallsAnswer {
  tool_calls: { name: string; arguments: Record<string, unknown> }[];
}

export interface ModelServer {
  baseUrl: string;
  /** The chat answer for a request (default: a short fixed text), or tool calls; throw to answer HTTP 500. */
  chat: (req: ChatRequest) => string | ToolCallsAnswer;
  /** Text spoken in the audio sent for transcription; a function may throw to answer HTTP 500. */
  speech: string | (() => string);
  requests: { path: string; body: unknown; bytes: number }[];
  close(): Promise<void>;
}

const read = (req: IncomingMessage) =>
  new Promise<Buffer>((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks)));
    req.on('error', fail);
  });

/** Herald's settings for the openai-compatible provider against this server, plus the suite's model names. */
export function modelServerEnv(baseUrl: string, models: Record<string, string> = {}): Record<string, string> {
  return {
    HERALD_AI_PROVIDER: 'openai-compatible',
    HERALD_AI_BASE_URL: baseUrl,
    HERALD_AI_API_KEY: 'test-key',
    HERALD_AI_MODEL: 'herald-test-chat',
    ...models,
  };
}

export async function startModelServer(): Promise<ModelServer> {
  const png = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: { r: 30, g: 140, b: 90 } } })
    .png()
    .toBuffer();
  const state: Omit<ModelServer, 'baseUrl' | 'close'> = {
    chat: () => 'A short post from the model.',
    speech: 'welcome to the new oven',
    requests: [],
  };
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<unknown> => {
    const raw = await read(req);
    const path = req.url ?? '';
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== 'Bearer test-key')
      return json(401, { error: { message: 'bad key', type: 'invalid_request_error' } });
    if (path === '/v1/chat/completions') {
      const body = JSON.parse(raw.toString('utf8')) as ChatRequest;
      state.requests.push({ path, body, bytes: raw.length });
      let answer: string | ToolCallsAnswer;
      try {
        answer = state.chat(body);
      } catch {
        return json(500, { error: { message: 'model crashed', type: 'server_error' } });
      }
      const base = { id: 'chatcmpl-1', created: 1_700_000_000, model: body.model };
      if (typeof answer !== 'string') {
        const toolCalls = answer.tool_calls.map((c, i) => ({
          id: `call_${state.requests.length}_${i}`,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        }));
        if (!body.stream) {
          return json(200, {
            ...base,
            object: 'chat.completion',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: null, tool_calls: toolCalls },
                finish_reason: 'tool_calls',
              },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
          });
        }
        // OpenAI's streamed tool calls: the id and name first, then the arguments in pieces, each by its index.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: object, finish: string | null) =>
          res.write(
            `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
          );
        chunk({ role: 'assistant', content: null }, null);
        for (const [index, c] of toolCalls.entries()) {
          chunk(
            { tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] },
            null,
          );
          for (const piece of c.function.arguments.match(/[\s\S]{1,8}/g) ?? [])
            chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null);
        }
        chunk({}, 'tool_calls');
        res.write('data: [DONE]\n\n');
        return res.end();
      }
      const text = answer;
      if (!body.stream) {
        return json(200, {
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        });
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null) =>
        res.write(
          `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      chunk({ role: 'assistant', content: '' }, null);
      for (const piece of text.match(/\S+\s*/g) ?? []) chunk({ content: piece }, null);
      chunk({}, 'stop');
      res.write('data: [DONE]\n\n');
      return res.end();
    }
    if (path === '/v1/images/generations') {
      const body = JSON.parse(raw.toString('utf8'));
      state.requests.push({ path, body, bytes: raw.length });
      return json(200, { created: 1_700_000_000, data: [{ b64_json: png.toString('base64') }] });
    }
    if (path === '/v1/audio/transcriptions') {
      // The form's fields and the file part's name and type, as a whisper server reads them.
      const form = raw.toString('latin1');
      const model = /name="model"\r\n\r\n([^\r]*)/.exec(form)?.[1] ?? null;
      const file = /name="file"; filename="([^"]*)"\r\nContent-Type: ([^\r]*)/.exec(form);
      state.requests.push({
        path,
        body: { model, filename: file?.[1] ?? null, type: file?.[2] ?? null },
        bytes: raw.length,
      });
      const isWav = raw.includes(Buffer.from('RIFF')) && raw.includes(Buffer.from('WAVE'));
      if (!isWav) return json(400, { error: { message: 'expected a WAV file', type: 'invalid_request_error' } });
      let text: string;
      try {
        text = typeof state.speech === 'function' ? state.speech() : state.speech;
      } catch {
        return json(500, { error: { message: 'whisper crashed at /srv/models/secret-path', type: 'server_error' } });
      }
      return json(200, { text });
    }
    json(404, { error: { message: `no route ${path}` } });
  };
  // A handler that throws ends the connection, as a crashing server would.
  const server: Server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => res.destroy(error as Error));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}
