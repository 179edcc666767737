// Database errors as they may be logged. Drizzle's error repeats the query's parameters in its message
// and stack (a password hash on sign-up, a key hash on key creation), PGlite attaches them as `params`,
// and PostgreSQL's DETAIL names the failing row or key. Only the SQL text and the error's identifiers
// (code, table, constraint…) are kept.

const PG_FIELDS = ['code', 'severity', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const;

interface DrizzleQueryError extends Error {
  query: string;
  params: unknown[];
}

const isDrizzleQueryError = (e: Error): e is DrizzleQueryError =>
  typeof (e as { query?: unknown }).query === 'string' && Array.isArray((e as { params?: unknown }).params);
const pgFields = (e: Error) =>
  Object.fromEntries(
    PG_FIELDS.flatMap((k) =>
      (e as unknown as Record<string, unknown>)[k] === undefined
        ? []
        : [[k, (e as unknown as Record<string, unknown>)[k]]],
    ),
  );

const isPgError = (e: Error) =>
  typeof (e as { severity?: unknown }).severity === 'string' && typeof (e as { code?: unknown }).code === 'string';

/** The stack without its first lines, which repeat the (unsafe) message. */
const frames = (e: Error) =>
  (e.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .join('\n');

/** Same class (logs keep its type), with only the given message and fields. */
function rebuilt(from: Error, message: string, fields: Record<string, unknown>): Error {
  const out = Object.create(Object.getPrototypeOf(from) as object) as Error;
  const name = from.name === 'error' ? 'DatabaseError' : from.name;
  return Object.assign(out, { name, message, stack: `${name}: ${message}\n${frames(from)}`, ...fields });
}

// PostgreSQL quotes an offending value at the end of some messages: invalid input syntax for type uuid: "…".
const redactTrailingValue = (msg: string) => msg.replace(/: ".*"$/s, ': [redacted]');

/**
 * A copy of `err` safe to log: database errors anywhere in its cause chain lose their parameter values.
 * Other errors are returned as they are.
 */
export function logSafeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > 8) return err;
  const cause = err.cause === undefined ? undefined : logSafeError(err.cause, depth + 1);
  const withCause = cause === undefined ? {} : { cause };
  // PGlite's own errors carry `query` and `params` too: recognise PostgreSQL's fields first.
  if (isPgError(err)) return rebuilt(err, redactTrailingValue(err.message), { ...pgFields(err), ...withCause });
  if (isDrizzleQueryError(err)) {
    // The log serializer prints only a cause's message: lift the database's identifiers up here.
    const db = err.cause instanceof Error && isPgError(err.cause) ? pgFields(err.cause) : {};
    return rebuilt(err, `Failed query: ${err.query}`, { query: err.query, ...db, ...withCause });
  }
  if (cause === err.cause) return err;
  // An error of ours wrapping a database error: same error, safe cause.
  return Object.assign(Object.create(Object.getPrototypeOf(err) as object) as Error, err, {
    cause,
    message: err.message,
    stack: err.stack,
  });
}
