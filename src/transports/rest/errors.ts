// Maps every failure to the interface's FastAPI-style bodies. A 500 carries only the request id.
// Fastify's own failures (content type, body size, bad URLs, oversized headers) get the same shape,
// in words a client can act on.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, capEchoes, logLevelOf, type FieldError } from '../../errors.ts';
import { SECURITY_HEADERS, setSecurityHeaders } from './security-headers.ts';

const LOCATION: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function zodToFieldErrors(
  err: Parameters<typeof hasZodFastifySchemaValidationErrors>[0] & {
    validation: { instancePath: string; message: string; keyword: string }[];
    validationContext?: string;
  },
): FieldError[] {
  const where = LOCATION[err.validationContext ?? 'body'] ?? 'body';
  return err.validation.map((v) => ({
    loc: [
      where,
      ...v.instancePath
        .split('/')
        .filter(Boolean)
        .map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
    ],
    msg: v.message,
    type: v.keyword,
  }));
}

/** What Fastify itself refused, as status and detail; undefined for errors that are not Fastify's. */
function fastifyFailure(error: FastifyError, req: FastifyRequest): { status: number; detail: string } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const sent = req.headers['content-type'];
      const multipart = (req.routeOptions.schema?.consumes as string[] | undefined)?.includes('multipart/form-data');
      const want = multipart
        ? 'Content-Type: application/json (or multipart/form-data for a file upload)'
        : 'Content-Type: application/json';
      return {
        status: 415,
        detail: capEchoes(
          `Unsupported Content-Type ${sent ? `'${sent}'` : '(none)'}: send the body as JSON with ${want}.`,
        ),
      };
    }
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        detail: `Request body too large: the limit for this route is ${req.routeOptions.bodyLimit} bytes.`,
      };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, detail: 'Content-Length does not match the body sent.' };
    case 'FST_ERR_BAD_URL':
      return { status: 400, detail: 'Malformed URL: invalid percent-encoding.' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, detail: 'URL too long: a path segment exceeds the length allowed.' };
    default:
      return undefined;
  }
}

/**
 * Error bodies are built here and nowhere else, so they bypass the routes' response schemas: a
 * route's documented error shape must never turn a refusal into a serialization failure (500).
 */
function sendError(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}) {
  return reply
    .code(status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send(body);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    if (error instanceof AppError) {
      const level = logLevelOf(error);
      if (level) req.log[level]({ err: error }, 'request failed');
      return sendError(reply, error.status, error.body(), error.headers);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendError(reply, 422, new AppError('validation', zodToFieldErrors(error as never)).body());
    }
    const code = (error as FastifyError).code;
    // Malformed or empty JSON is a validation failure of the body, not a server error.
    if (
      code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error instanceof SyntaxError
    ) {
      return sendError(reply, 422, {
        detail: [{ loc: ['body'], msg: 'Body is not valid JSON', type: 'json_invalid' }],
      });
    }
    const known = fastifyFailure(error as FastifyError, req);
    if (known) return sendError(reply, known.status, { detail: known.detail });
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status, { detail: capEchoes(error.message || (STATUS_CODES[status] ?? 'Bad Request')) });
    }
    req.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, { detail: 'Internal Server Error', request_id: req.id });
  });

  app.setNotFoundHandler((_req, reply) => {
    reply.code(404).send({ detail: 'Not Found' });
  });
}

/** Fastify's `frameworkErrors`: failures found while routing, before any handler or hook. */
export function frameworkErrors(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const known = fastifyFailure(error, req) ?? { status: 500, detail: 'Internal Server Error' };
  setSecurityHeaders(reply.raw, '');
  reply.code(known.status).send({ detail: known.detail });
}

// Node refuses these before any request object exists: the answer is written to the socket directly.
const RAW_SECURITY_HEADERS = Object.entries(SECURITY_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');
const URL_TOO_LONG = 8 * 1024;

/** Fastify's `clientErrorHandler`: malformed HTTP, oversized request lines or headers, timeouts. */
export const clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']> = (err, socket: Socket) => {
  if ((err as NodeJS.ErrnoException).code === 'ECONNRESET' || socket.destroyed) return;
  const code = (err as NodeJS.ErrnoException).code;
  let status = 400;
  let detail = 'Malformed HTTP request.';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') [status, detail] = [408, 'Request timed out.'];
  else if (code === 'HPE_HEADER_OVERFLOW') {
    // The request line counts towards the header limit: a huge URL is the usual cause.
    const raw = (err as unknown as { rawPacket?: Buffer }).rawPacket;
    const firstLine = raw?.subarray(0, URL_TOO_LONG + 2).toString('latin1') ?? '';
    [status, detail] =
      firstLine.length > URL_TOO_LONG && !firstLine.includes('\r\n')
        ? [414, 'URL too long.']
        : [431, 'Request headers too large.'];
  }
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n${RAW_SECURITY_HEADERS}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
};
