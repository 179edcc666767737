// Bluesky's documented errors that no ordinary sandbox request produces, for `POST /_faults {"fault": "error"}`
// (core/documented.ts): XRPC answers of the PDS and the video service, the video service's daily limits as
// getUploadLimits reports them, and outcomes of the upload call (a job that fails with a failureCode, a video the
// service already processed).
import type { DocumentedFault, ErrorCatalogue } from '../core/documented.ts';
import { xrpcError } from './errors.ts';

const xrpc = (status: number, error: string, message: string): DocumentedFault => ({ answer: xrpcError(status, error, message) });
const FAILURE_CODES = ['validation_failure', 'encoding_failure', 'pds_upload_failure', 'pds_upload_unsupported_blob_size', 'generic_failure'];

export const BLUESKY_ERRORS: ErrorCatalogue = {
  InvalidToken: xrpc(400, 'InvalidToken', 'Token could not be verified'),
  AuthMissing: xrpc(401, 'AuthMissing', 'Authentication Required'),
  AccountTakedown: xrpc(401, 'AccountTakedown', 'Account has been taken down'),
  AccountDeactivated: xrpc(401, 'AccountDeactivated', 'Account is deactivated'),
  InvalidRequest: xrpc(400, 'InvalidRequest', 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes'),
  InvalidSwap: xrpc(400, 'InvalidSwap', 'Commit was at a different revision'),
  InvalidMimeType: xrpc(400, 'InvalidMimeType', 'Referenced Mimetype does not match stored blob'),
  InvalidSize: xrpc(400, 'InvalidSize', 'Referenced blob size does not match stored blob'),
  PayloadTooLarge: xrpc(413, 'PayloadTooLarge', 'request entity too large'),
  RecordNotFound: xrpc(400, 'RecordNotFound', 'Could not locate record'),
  UpstreamFailure: xrpc(502, 'UpstreamFailure', 'Upstream Failure'),
  UpstreamTimeout: xrpc(504, 'UpstreamTimeout', 'Upstream Timeout'),
  NotEnoughResources: xrpc(503, 'NotEnoughResources', 'Not enough resources'),
  BlockedActor: xrpc(400, 'BlockedActor', 'Requester has blocked actor'),
  BlockedByActor: xrpc(400, 'BlockedByActor', 'Requester is blocked by actor'),
  VideoTooLarge: xrpc(400, 'VideoTooLarge', 'Video is too large'),
  ServiceOverloaded: xrpc(503, 'ServiceOverloaded', 'The video service is overloaded, try again later'),
  daily_video_limit: { answer: { status: 200, body: { canUpload: false, remainingDailyVideos: 0, remainingDailyBytes: 5_000_000_000, message: 'You have reached your daily upload limit', error: 'daily_limit' } } },
  daily_bytes_limit: { answer: { status: 200, body: { canUpload: true, remainingDailyVideos: 10, remainingDailyBytes: 10 } } },
  already_exists: { outcome: { already_exists: true } },
  ...Object.fromEntries(FAILURE_CODES.map((code) => [code, { outcome: { error: code } }])),
};
