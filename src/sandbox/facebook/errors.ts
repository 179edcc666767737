// Facebook's documented errors that no ordinary sandbox request produces, for `POST /_faults {"fault": "error"}`
// (core/documented.ts): Graph answers as Meta's error reference gives their codes and subcodes.
import type { DocumentedFault, ErrorCatalogue } from '../core/documented.ts';
import { graphError } from '../core/graph.ts';
import { deadSessions, metaThrottles } from '../core/meta-errors.ts';

const graph = (code: number, message: string, subcode?: number, type = 'OAuthException'): DocumentedFault => ({
  answer: graphError(400, { message, code, type, ...(subcode !== undefined ? { subcode } : {}) }),
});

export const FACEBOOK_ERRORS: ErrorCatalogue = {
  ...deadSessions(),
  ...metaThrottles('100000000000001', { type: 'pages', code: 80001 }),
  token_invalid: graph(190, 'Invalid OAuth access token - Cannot parse access token'),
  session_key: graph(102, 'Session key invalid or no longer valid'),
  checkpointed: graph(
    190,
    'Error validating access token: The user is enrolled in a blocking, logged-in checkpoint',
    459,
  ),
  unconfirmed_user: graph(
    190,
    'Error validating access token: Sessions for the user are not allowed because the user is not a confirmed user.',
    464,
  ),
  page_role_lost: graph(
    190,
    'Error validating access token: The user is no longer an admin or editor of this Page.',
    492,
  ),
  permission_denied: graph(10, '(#10) Application does not have permission for this action'),
  permission_200: graph(200, "(#200) The user hasn't authorized the application to perform this action"),
  capability: graph(3, '(#3) Application does not have the capability to make this API call.'),
  invalid_parameter: graph(100, '(#100) Invalid parameter'),
  unknown_error: graph(1, 'An unknown error occurred'),
  app_limit: graph(341, '(#341) Application limit reached'),
  policy_block: graph(368, 'The action attempted has been deemed abusive or is otherwise disallowed'),
  duplicate_post: graph(506, '(#506) Duplicate status message'),
  link_scrape: graph(1609005, 'Error Scraping Link'),
  too_fast: graph(
    368,
    "It looks like you were misusing this feature by going too fast. You've been temporarily blocked from using it.",
    1390008,
  ),
  photo_rejected: graph(100, '(#100) Photo file is too large or of an unsupported type', 1366046),
  publishing_authorization: graph(
    200,
    'To publish as this Page, the Page needs Page Publishing Authorization.',
    1404078,
  ),
  identity_confirmation: graph(200, 'You need to confirm your identity before you can publish as this Page.', 4854002),
  content_flagged: graph(
    368,
    "The content you're trying to share includes a link that our security systems detected to be unsafe",
    1346003,
  ),
  community_standards: graph(
    368,
    "Your content couldn't be shared, because this link goes against our Community Standards",
    1404102,
  ),
};
