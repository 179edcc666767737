// Maps every failure to the interface's FastAPI-style bodies. A 500 carries only the request id.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type FieldError } from '../../errors.ts';

const LOCATION: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function zodToFieldErrors(err: Parameters<typeof hasZodFastifySchemaValidationErrors>[0] & { validation: { instancePath: string; message: string; keyword: string }[]; validationContext?: string }): FieldError[] {
  const where = LOCATION[err.validationContext ?? 'body'] ?? 'body';
  return err.validation.map((v) => ({
    loc: [where, ...v.instancePath.split('/').filter(Boolean).map((s) => (/^\d+$/.test(s) ? Number(s) : s))],
    msg: v.message,
    type: v.keyword,
  }));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) req.log.error({ err: error }, 'request failed');
      return reply.code(error.status).headers(error.headers).send(error.body());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(422).send({ detail: zodToFieldErrors(error as never) });
    }
    const code = (error as FastifyError).code;
    // Malformed or empty JSON is a validation failure of the body, not a server error.
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
      return reply.code(422).send({ detail: [{ loc: ['body'], msg: 'Body is not valid JSON', type: 'json_invalid' }] });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: error.message });
    }
    req.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal Server Error', request_id: req.id });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ detail: 'Not Found' });
  });
}
