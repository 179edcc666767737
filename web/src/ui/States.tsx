// What a page shows while its data loads, when there is none, and when the request failed (with the API's words).
import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../api/errors.ts';
import { t } from '../i18n/index.ts';
import { Button } from './Button.tsx';

export function Loading({ label = t.common.loading }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function Empty({ title = t.empty.title, children }: { title?: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children}
    </div>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{t.errors.title}</p>
      <p>{errorMessage(error)}</p>
      {onRetry && <Button onClick={onRetry}>{t.common.retry}</Button>}
    </div>
  );
}

/**
 * An error message inline (e.g. under a form), or nothing. `fields`: the fields the form shows errors beside; an
 * invalid-input error whose every field is among them is already said there.
 */
export function ErrorText({ error, fields }: { error: unknown; fields?: string[] }) {
  if (!error) return null;
  if (fields && error instanceof ApiError) {
    const keys = Object.keys(error.fields);
    if (keys.length && keys.every((k) => fields.includes(k))) return null;
  }
  return (
    <p className="form-error" role="alert">
      {errorMessage(error)}
    </p>
  );
}

interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

/** Loading and error states of a query; `children` renders its data. */
export function QueryView<T>({ query, children }: { query: QueryLike<T>; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading />;
  if (query.error || query.data === undefined)
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}
