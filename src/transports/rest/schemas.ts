// Schemas shared by several routes. Each route file keeps its own request/response schemas.
import { z } from 'zod';

export const detailSchema = z.object({ detail: z.unknown() }).describe('Error body (FastAPI style)');

export const userSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  username: z.string().nullable(),
  full_name: z.string().nullable(),
  is_active: z.boolean(),
  is_admin: z.boolean(),
  email_verified: z.boolean(),
  must_set_password: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const sessionSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  user: userSchema,
});

/** A session answered to the web app (`X-Herald-Client: web`): the token is in the httpOnly cookie, not here. */
export const browserSessionSchema = z
  .object({ user: userSchema })
  .describe('With X-Herald-Client: web, the session is set as the httpOnly herald_session cookie instead.');

/**
 * A new session: its token in the body, or (for the web app) in the cookie. Token form first, so it keeps its token.
 */
export const sessionAnswerSchema = z.union([sessionSchema, browserSessionSchema]);

export const passwordSchema = z.string().min(8, 'Password must be at least 8 characters').max(256);

export const workspaceIdParams = z.object({ workspace_id: z.uuid() });

/** Security requirements for the OpenAPI document (openapi.ts also derives them from a route's access kind). */
export { userSecurity, workspaceSecurity } from './openapi.ts';

/** OpenAPI entries for the error answers a route gives beyond those its access rule implies (openapi-errors.ts). */
export { errorResponses } from './openapi-errors.ts';
