import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { publicUser } from '../../../auth/accounts.ts';
import { AppError } from '../../../errors.ts';
import { userOf } from '../access.ts';
import {
  errorResponses,
  passwordSchema as password,
  sessionAnswerSchema,
  userSchema,
  userSecurity,
} from '../schemas.ts';
import { CLIENT_HEADER, cookieOptions, openSession } from '../browser-session.ts';
import { accountSessionRoutes } from './auth-sessions.ts';

export const signupBody = z.object({
  email: z.email().max(320),
  password,
  full_name: z.string().trim().max(200).optional(),
  username: z.string().trim().min(1).max(64).optional(),
  workspace_name: z.string().trim().min(1).max(120).optional(),
});

const signupWithInvitation = signupBody.extend({
  invitation_token: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Joins the inviting workspace as well; admits the address when sign-up is by invitation only (HERALD_SIGNUP=invite)',
    ),
});

const webClient = z.object({
  [CLIENT_HEADER]: z
    .string()
    .max(64)
    .optional()
    .describe(
      '`web`: the web app. The session is set as an httpOnly cookie (herald_session) and the body carries no token.',
    ),
});

const loginBody = z.object({ email: z.string().min(1).max(320), password: z.string().min(1).max(256) });

export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/auth/signup',
    {
      config: { access: { kind: 'public', budget: 'auth' } },
      schema: {
        tags: ['auth'],
        operationId: 'signUp',
        summary: 'Create an account and its first workspace',
        responseDescription: 'The account was created: a session for it.',
        description:
          'With invitation_token (from a workspace invitation to this address) the account also joins that workspace.',
        body: signupWithInvitation,
        headers: webClient,
        response: { 201: sessionAnswerSchema, ...errorResponses(403, 409, 422) },
      },
    },
    async (req, reply) => {
      const user = await ctx.accounts.signup(req.body);
      if (req.body.invitation_token) ctx.auth.invalidate();
      reply.code(201);
      return openSession(ctx, req, reply, user);
    },
  );

  r.post(
    '/auth/login',
    {
      config: { access: { kind: 'public', budget: 'auth' } },
      schema: {
        tags: ['auth'],
        operationId: 'logIn',
        summary: 'Log in with email and password',
        responseDescription: 'Signed in: a session token and the user.',
        body: loginBody,
        headers: webClient,
        response: { 200: sessionAnswerSchema, ...errorResponses(401) },
      },
    },
    async (req, reply) => {
      // Counted per email whether or not it is registered, so the throttle reveals nothing either.
      await ctx.loginThrottle.attempt('login', req.body.email);
      const user = await ctx.accounts.login(req.body.email, req.body.password);
      // One message for unknown email and wrong password alike.
      if (!user) throw new AppError('unauthorized', 'Incorrect email or password.');
      await ctx.loginThrottle.succeeded('login', req.body.email);
      return openSession(ctx, req, reply, user);
    },
  );

  r.get(
    '/auth/csrf',
    {
      // The token is worthless without the secret cookie it is made from, which only this site's pages carry.
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['auth'],
        operationId: 'getCsrfToken',
        summary: 'A CSRF token for the web app',
        responseDescription: 'A token to send as X-CSRF-Token with every write made with the session cookie.',
        description:
          'Sets the httpOnly secret cookie the token is checked against (once per browser). Requests authenticated by the herald_session cookie other than GET, HEAD and OPTIONS must carry the token in X-CSRF-Token (403 otherwise); requests with an Authorization or X-API-Key header need none.',
        response: { 200: z.object({ csrf_token: z.string() }) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return { csrf_token: reply.generateCsrf(cookieOptions(req)) };
    },
  );

  r.get(
    '/auth/me',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['auth'],
        operationId: 'getCurrentUser',
        summary: 'The signed-in user',
        responseDescription: 'The user of the session.',
        security: userSecurity,
        response: { 200: userSchema },
      },
    },
    async (req) => publicUser(userOf(req).user),
  );

  await app.register(accountSessionRoutes, { ctx });
}
