// Pinterest's documented errors that no ordinary sandbox request produces, for `POST /_faults {"fault": "error"}`
// (core/documented.ts): `{code, message}` answers with the spec's codes, and a media upload that ends `failed`.
import type { DocumentedFault, ErrorCatalogue } from '../core/documented.ts';
import { pinError } from './errors.ts';

const answer = (status: number, code: number, message: string): DocumentedFault => ({ answer: pinError(status, code, message) });

export const PINTEREST_ERRORS: ErrorCatalogue = {
  invalid_parameters: answer(400, 1, 'Invalid request body: \'board_id\' must match the pattern ^\\d+$'),
  unreachable_url: answer(400, 1, 'Unable to reach the URL: https://media.example/photo.jpg'),
  token_not_valid: answer(401, 1104, 'Token is not valid or has expired.'),
  missing_scope: answer(403, 3, 'Your application consumer key was not granted the required scopes to access this resource.'),
  board_forbidden: answer(403, 7, 'Not authorized to access board or Pin.'),
  resource_forbidden: answer(403, 29, 'You are not permitted to access that resource.'),
  board_not_found: answer(404, 40, 'Board not found.'),
  pin_not_found: answer(404, 50, 'Pin not found.'),
  user_not_found: answer(404, 30, 'User not found.'),
  conflict: answer(409, 409, 'Conflict.'),
  media_failed: { outcome: { status: 'failed' } },
};
