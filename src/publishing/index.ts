// Publishing's public face: what the rest of Herald may use. Everything else in this folder is its own.
export { PublishingService, type PublishingDeps, type ScheduleRequest, type ScheduledRunRecord } from './service.ts';
export {
  DraftService,
  draftSchema,
  draftToWire,
  narrowBody,
  requesterSchema,
  type DraftRow,
  type Requester,
} from './drafts.ts';
export { PostValidator } from './validate.ts';
export {
  FIRST_COMMENT_STEP,
  POSTED_PREFIX as FIRST_COMMENT_POSTED_PREFIX,
  firstCommentOf,
  firstCommentOfTarget,
  firstCommentSchema,
  type FirstCommentResult,
} from './first-comment.ts';
export { FollowUps } from './follow-ups.ts';
export {
  assertNotHeld,
  assertPost,
  heldDraftRefSchema,
  isMemberSession,
  PENDING_APPROVAL,
  REASON_MAX,
  requesterOf,
} from './approval.ts';
export { replay, requestHash } from './idempotency.ts';
export { nothingToUpdate, parseEdit, parsePostBody } from './edits.ts';
export { mergeEdit, withImportedMedia } from './media-refs.ts';
export { storedBody } from './stored-body.ts';
export { countText } from './text.ts';
export { anyPostBody, dateTime, postBodies, withoutNulls, type PostBody } from './schemas.ts';
export {
  draftRefSchema,
  publishResultSchema,
  scheduledRefSchema,
  targetResultSchema,
  type PublishReply,
  type PublishResult,
  type ScheduledRef,
  type TargetOutcome,
} from './results.ts';
export type { NewScheduledEntry, QueueSlotClaim, ScheduledEntryRef, ScheduleWriter } from './submit.ts';
export type { Ledger, TargetRow } from './ledger.ts';
export type { PlannedTarget } from './plan.ts';
export type { KnownTarget, TargetRunner, WithPublished } from './runner.ts';
export {
  ACTION_STATES,
  actionToWire,
  actionWireSchema,
  HIDDEN,
  type ActionWire,
  type StoredAction,
} from './held-actions.ts';
