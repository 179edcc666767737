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

export const passwordSchema = z.string().min(8, 'Password must be at least 8 characters').max(256);

export const workspaceIdParams = z.object({ workspace_id: z.uuid() });

/** Bearer/API-key security for the OpenAPI document. */
export const workspaceSecurity: Record<string, string[]>[] = [{ ApiKey: [] }, { Bearer: [] }];
export const userSecurity: Record<string, string[]>[] = [{ Bearer: [] }];

const ERROR_MEANING: Record<number, string> = {
  400: 'Bad request: {"detail": "<why>"}',
  401: 'Not authenticated, or the session was revoked or has expired',
  403: 'Forbidden: not a member or owner of the workspace, an API key on a session-only route, or a plan limit ({"detail": {"error": ...}})',
  404: 'Not found',
  409: 'Conflict with the current state: {"detail": "<why>"}',
  413: 'Too large',
  422: 'Validation error: {"detail": [{"loc": [...], "msg": "...", "type": "..."}]}',
};

/** OpenAPI entries for the error answers a route gives (all in the FastAPI {"detail": ...} shape). */
export function errorResponses(...codes: (keyof typeof ERROR_MEANING)[]) {
  return Object.fromEntries(codes.map((c) => [c, detailSchema.describe(ERROR_MEANING[c]!)]));
}
