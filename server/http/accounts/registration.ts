// POST /clients, POST /clientverify, GET /clientview/{userId}: client registration and profile; PUT
// clientview/{userId}/address: the client's own company address.
import { RegistrationSchema } from '../../domain/accountRules.js';
import { notFound } from '../../errors.js';
import { registerClient, verifyRegistration } from '../../services/accounts/registration.js';
import { CompanyAddressInput } from '../../domain/clientProfile.js';
import { findClientProfile, updateCompanyAddress } from '../../services/clients.js';
import { accountDeps } from '../../services/accounts/codes.js';
import { LIMITS, limited } from '../../services/rateLimits.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppRouter } from '../context.js';
import { authorize, inputOf } from '../guards.js';
import { json, MessageBody, route } from '../route.js';
import { ClientProfileBody, EmailCodeInput, RegisteredBody, UserIdParam } from './schemas.js';
import { attemptOf } from './shared.js';

export function registrationRoutes(router: AppRouter, deps: AppDeps): void {
  const accounts = accountDeps(deps);

  route(
    router,
    {
      method: 'post',
      path: '/clients',
      open: true,
      summary: 'Registers a client and e-mails a verification code.',
      body: RegistrationSchema,
      responses: { 201: json('Registered; the code was sent.', RegisteredBody) },
      errors: [409, 429],
    },
    async (ctx) => {
      const input = parseInput(RegistrationSchema, inputOf(ctx));
      const user = await limited(deps, LIMITS.register, attemptOf(ctx, input.user.email), () => registerClient(accounts, input, ctx.ip));
      ctx.status = 201;
      ctx.body = { message: 'Registered. Enter the code we sent to your e-mail address to verify it.', userId: user.id, email: user.email };
    },
  );

  route(
    router,
    {
      method: 'post',
      path: '/clientverify',
      open: true,
      summary: 'Verifies a registration with the e-mailed code.',
      body: EmailCodeInput,
      responses: { 200: json('Verified.', MessageBody) },
      errors: [401, 429],
    },
    async (ctx) => {
      const input = parseInput(EmailCodeInput, inputOf(ctx));
      await limited(deps, LIMITS.codeCheck, attemptOf(ctx, input.email), () => verifyRegistration(accounts, input.email, input.otp));
      ctx.body = { message: 'Your e-mail address is verified. You can now log in.' };
    },
  );

  route(
    router,
    {
      method: 'get',
      path: '/clientview/:userId',
      summary: "A client's profile (the client itself and the desk).",
      params: UserIdParam,
      responses: { 200: json('The profile.', ClientProfileBody) },
      errors: [403, 404],
    },
    async (ctx) => {
      const { userId } = parseInput(UserIdParam, ctx.params);
      // Authorised before the lookup, so another client's id is refused whether it exists or not.
      authorize(ctx, 'profile:read', { clientUserId: userId });
      const profile = await findClientProfile(deps.db, userId);
      if (!profile) throw notFound('There is no client with this id.');
      ctx.body = profile;
    },
  );

  route(
    router,
    {
      method: 'put',
      path: '/clientview/:userId/address',
      summary: "Sets the client's own company postal address (printed on certificates); blank removes it.",
      params: UserIdParam,
      body: CompanyAddressInput,
      responses: { 200: json('The profile as it now is.', ClientProfileBody) },
      errors: [404],
    },
    async (ctx) => {
      const { userId } = parseInput(UserIdParam, ctx.params);
      // Authorised before the input, so another client's id is refused whatever the body.
      const user = authorize(ctx, 'profile:update', { clientUserId: userId });
      const input = parseInput(CompanyAddressInput, inputOf(ctx));
      ctx.body = await updateCompanyAddress(deps, user, userId, input, { ip: ctx.ip });
    },
  );
}
