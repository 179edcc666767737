// Ending sessions, changing the password, and resetting a forgotten one by mail (contract-gaps §7).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../../app-context.ts';
import { publicUser } from '../../../auth/accounts.ts';
import { FORGOT_PASSWORD_MESSAGE } from '../../../auth/password-reset.ts';
import { MAIL_NOT_CONFIGURED } from '../../../mail.ts';
import { userOf } from '../access.ts';
import { errorResponses, passwordSchema as password, sessionAnswerSchema, userSecurity } from '../schemas.ts';
import { clearBrowserSession } from '../browser-session.ts';

const done = z.object({ success: z.boolean(), message: z.string() });

export async function accountSessionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const user = { access: { kind: 'user' as const } };
  // Account recovery spends the sign-in budget of the client address, like /auth/login.
  const open = { access: { kind: 'public' as const, budget: 'auth' as const } };

  r.post(
    '/auth/logout',
    {
      config: user,
      schema: {
        tags: ['auth'],
        operationId: 'logOut',
        summary: 'End this session',
        responseDescription: 'This session is ended.',
        description:
          'The token presented is refused from now on, by every Herald instance within a second. Other sessions stay signed in.',
        security: userSecurity,
        response: { 200: done, ...errorResponses(401) },
      },
    },
    async (req, reply) => {
      await ctx.sessions.logout(userOf(req).session);
      if (req.cookieSession) clearBrowserSession(req, reply);
      return { success: true, message: 'Signed out.' };
    },
  );

  r.post(
    '/auth/logout-all',
    {
      config: user,
      schema: {
        tags: ['auth'],
        operationId: 'logOutEverywhere',
        summary: 'End every session of the account, this one included',
        responseDescription: 'Every session of the account is ended.',
        security: userSecurity,
        response: { 200: done, ...errorResponses(401) },
      },
    },
    async (req, reply) => {
      await ctx.sessions.revokeAll(userOf(req).user.id);
      clearBrowserSession(req, reply);
      return { success: true, message: 'Signed out everywhere.' };
    },
  );

  r.post(
    '/auth/change-password',
    {
      config: user,
      schema: {
        tags: ['auth'],
        operationId: 'changePassword',
        summary: 'Change the password; every other session is signed out',
        responseDescription: 'The password is changed: a fresh session token.',
        description:
          'Answers with a fresh session token: the one presented stops working too. With the session cookie of the web app, the cookie is cleared and the body has no token: the browser signs in again with the new password.',
        security: userSecurity,
        body: z.object({ current_password: z.string().min(1).max(256), new_password: password }),
        response: { 200: sessionAnswerSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (req, reply) => {
      const { user } = userOf(req);
      // A stolen session must not become a way to guess the password: same backoff as sign-in.
      await ctx.loginThrottle.attempt('password_change', user.id);
      const changed = await ctx.accounts.changePassword(user, req.body.current_password, req.body.new_password);
      await ctx.loginThrottle.succeeded('password_change', user.id);
      // The web app's session ends with the old password; its JWT never reaches page scripts.
      if (req.cookieSession) {
        clearBrowserSession(req, reply);
        return { user: publicUser(changed) };
      }
      return {
        access_token: await ctx.sessions.issue(changed),
        token_type: 'bearer' as const,
        user: publicUser(changed),
      };
    },
  );

  r.post(
    '/auth/forgot-password',
    {
      config: open,
      schema: {
        tags: ['auth'],
        operationId: 'requestPasswordReset',
        summary: 'Mail a password reset token',
        responseDescription: 'Accepted: a reset mail is sent if the address has an account.',
        description:
          'The same answer, at once, whether or not the address has an account. At most one mail per account per minute. The token is valid for HERALD_PASSWORD_RESET_TTL_SECONDS.',
        body: z.object({ email: z.email().max(320) }),
        response: { 200: z.object({ message: z.string() }), ...errorResponses(422) },
      },
    },
    async (req) => {
      ctx.passwordReset.request(req.body.email);
      // The same answer for every address; without SMTP it says that no mail leaves.
      return {
        message: ctx.mailer.configured ? FORGOT_PASSWORD_MESSAGE : `${FORGOT_PASSWORD_MESSAGE} ${MAIL_NOT_CONFIGURED}`,
      };
    },
  );

  r.get(
    '/auth/verify-reset-token',
    {
      config: open,
      schema: {
        tags: ['auth'],
        operationId: 'verifyResetToken',
        summary: 'Whether a password reset token can still be used (it is not consumed)',
        responseDescription: 'Whether the token is still valid.',
        querystring: z.object({ token: z.string().min(1).max(200) }),
        response: { 200: z.object({ valid: z.boolean() }), ...errorResponses(422) },
      },
    },
    async (req) => ({ valid: await ctx.passwordReset.verify(req.query.token) }),
  );

  r.post(
    '/auth/reset-password',
    {
      config: open,
      schema: {
        tags: ['auth'],
        operationId: 'resetPassword',
        summary: 'Set a new password with a reset token; every session of the account is signed out',
        responseDescription: 'The password is reset.',
        body: z.object({ token: z.string().min(1).max(200), new_password: password }),
        response: { 200: z.object({ message: z.string() }), ...errorResponses(400, 422) },
      },
    },
    async (req) => {
      await ctx.passwordReset.reset(req.body.token, req.body.new_password);
      return { message: 'Your password has been reset. Sign in with the new password.' };
    },
  );
}
