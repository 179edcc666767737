// A queue entry's statuses, and which of them each user action may start from.
import { AppError } from '../errors.ts';

export type ScheduledStatus = 'scheduled' | 'publishing' | 'published' | 'failed' | 'cancelled';
export const STATUSES: ScheduledStatus[] = ['scheduled', 'publishing', 'published', 'failed', 'cancelled'];

/** Which statuses each user action may start from (docs/scheduling.md has the table). */
export const ALLOWED_FROM = {
  cancel: ['scheduled', 'failed', 'publishing'],
  publishNow: ['scheduled', 'failed'],
  edit: ['scheduled', 'failed'],
  moveToDraft: ['scheduled', 'failed'],
} as const satisfies Record<string, readonly ScheduledStatus[]>;

export type Action = keyof typeof ALLOWED_FROM;

const VERB: Record<Action, string> = {
  cancel: 'cancelled',
  publishNow: 'published now',
  edit: 'edited or rescheduled',
  moveToDraft: 'moved to drafts',
};

export function conflict(action: Action, status: string): AppError {
  return new AppError(
    'conflict',
    `This scheduled post is '${status}' and cannot be ${VERB[action]}: that is allowed only from ${ALLOWED_FROM[action].join(', ')}.`,
  );
}
