// The events outbox's public face (see store.ts and types.ts).
export * from './types.ts';
export {
  CursorError,
  decodeCursor,
  encodeCursor,
  type EventQuery,
  type EventRow,
  EventStore,
  eventRow,
  recordEvent,
  recordEvents,
  type RecordOptions,
  toWire,
} from './store.ts';
export { approvalEvent, attemptInsert, postOutcomeEvents } from './sql.ts';
export { sanitizeErrorText } from './sanitize.ts';
