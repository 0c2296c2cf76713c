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
import { authorize, inputOf, signedInOnly } from '../guards.js';
import { EmailCodeInput, UserIdParam } from './schemas.js';
import { attemptOf } from './shared.js';

export function registrationRoutes(router: AppRouter, deps: AppDeps): void {
  const accounts = accountDeps(deps);

  router.post('/clients', async (ctx) => {
    const input = parseInput(RegistrationSchema, inputOf(ctx));
    const user = await limited(deps, LIMITS.register, attemptOf(ctx, input.user.email), () => registerClient(accounts, input, ctx.ip));
    ctx.status = 201;
    ctx.body = { message: 'Registered. Enter the code we sent to your e-mail address to verify it.', userId: user.id, email: user.email };
  });

  router.post('/clientverify', async (ctx) => {
    const input = parseInput(EmailCodeInput, inputOf(ctx));
    await limited(deps, LIMITS.codeCheck, attemptOf(ctx, input.email), () => verifyRegistration(accounts, input.email, input.otp));
    ctx.body = { message: 'Your e-mail address is verified. You can now log in.' };
  });

  router.get('/clientview/:userId', signedInOnly, async (ctx) => {
    const { userId } = parseInput(UserIdParam, ctx.params);
    // Authorised before the lookup, so another client's id is refused whether it exists or not.
    authorize(ctx, 'profile:read', { clientUserId: userId });
    const profile = await findClientProfile(deps.db, userId);
    if (!profile) throw notFound('There is no client with this id.');
    ctx.body = profile;
  });

  router.put('/clientview/:userId/address', signedInOnly, async (ctx) => {
    const { userId } = parseInput(UserIdParam, ctx.params);
    // Authorised before the input, so another client's id is refused whatever the body.
    const user = authorize(ctx, 'profile:update', { clientUserId: userId });
    const input = parseInput(CompanyAddressInput, inputOf(ctx));
    ctx.body = await updateCompanyAddress(deps, user, userId, input, { ip: ctx.ip });
  });
}
