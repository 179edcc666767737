// The `queue` mode of a feed: its items join the workspace's posting queue instead of getting a time of their own.
// Queues are not part of this build yet; this is the one place that knows it, refusing the mode when a feed is
// created or changed. Wiring queues in means replacing this function (and the poll's use of it) only.
import { AppError } from '../errors.ts';

export function assertQueueModeAvailable(): never {
  throw new AppError('bad_request', 'queues are not available');
}
