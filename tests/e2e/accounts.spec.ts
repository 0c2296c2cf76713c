/**
 * Getting into the portal (SPEC sections 2, 5, 8): registration with its e-mailed code, login with
 * password and code, the forgotten-password flow, and the alerts and redirects on the way.
 * Each journey makes its own account, so the demo accounts other specs use keep their passwords.
 */
import type { Dialog, Page } from '@playwright/test';
import { signIn } from './auth.js';
import { expectNoAxeViolations } from './checks.js';
import { expect, extractCode, test, type Lab } from './fixtures.js';

const PASSWORD = 'a long passphrase';

/** The code of the next mail to `email` whose subject contains `subject`, sent after `mark`. */
async function codeFrom(lab: Lab, email: string, subject: string, mark: number): Promise<string> {
  const mail = await lab.mailbox.waitFor(email, (m) => m.subject.includes(subject) && extractCode(m.text) !== null, { after: mark });
  return extractCode(mail.text)!;
}

/**
 * Clicks `button` and resolves with the message the form then shows in the page (role=alert, above
 * its submit button); no native dialog may open meanwhile.
 */
async function alertAfter(page: Page, button: string): Promise<string> {
  const dialogs: string[] = [];
  const record = (dialog: Dialog) => void dialogs.push(dialog.message());
  page.on('dialog', record);
  await page.getByRole('button', { name: button, exact: true }).click();
  const alert = page.locator('form').getByRole('alert');
  await expect(alert).toBeVisible();
  page.off('dialog', record);
  expect(dialogs).toEqual([]);
  return (await alert.textContent()) ?? '';
}

let sequence = 0;
const freshAccount = () => {
  sequence += 1;
  const tag = `${Date.now().toString(36)}${sequence}`;
  return { username: `client${tag}`, email: `client.${tag}@example.test` };
};

/** A verified client made through the API (registration, then its code). */
async function registeredClient(page: Page, lab: Lab) {
  const account = freshAccount();
  const mark = lab.mailbox.mark();
  const created = await page.request.post('/clients', {
    data: {
      user: { ...account, firstName: 'Ana', lastName: 'Lim', contactNumber: '639171234567', password: PASSWORD },
      client: { companyName: 'Lim Cold Storage', ltoNo: 'LTO-5', classification: 'Cold Storage Warehouse' },
    },
  });
  expect(created.status()).toBe(201);
  const otp = await codeFrom(lab, account.email, 'Verify your e-mail', mark);
  expect((await page.request.post('/clientverify', { data: { email: account.email, otp } })).ok()).toBe(true);
  return account;
}

/** Logs in through /login and /tfa/{identifier}; resolves on the user's home. */
async function logInThroughScreens(page: Page, lab: Lab, identifier: string, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const mark = lab.mailbox.mark();
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/tfa/${identifier}$`));
  // The code is what this screen asks for: its field has the focus.
  await expect(page.getByLabel('Login code')).toBeFocused();
  await expect(page.getByRole('button', { name: 'Resend code' })).toBeDisabled();
  await page.getByLabel('Login code').fill(await codeFrom(lab, email, 'login code', mark));
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expect(page).toHaveURL(/\/home\/client\/\d+$/);
}

test('register, verify the e-mailed code, log in with the code and be welcomed by username', async ({ page, lab }) => {
  const { username, email } = freshAccount();
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Register' })).toBeVisible();

  await page.getByLabel('First Name').fill('Nora');
  expect(await alertAfter(page, 'Register')).toBe(
    'Please fill in all required fields, ensure contact number is 18 characters long, and client classification is provided.',
  );
  // Beside it, every missing field says so at once; the filled first name says nothing.
  await expect(page.locator('.field-error')).toHaveText([
    '⚠ Enter your last name.',
    '⚠ Enter the whole contact number, (+63) XXX XXX XXXX.',
    '⚠ Enter your e-mail address.',
    '⚠ Enter a password.',
    '⚠ Enter the company name.',
    '⚠ Enter the LTO number.',
    '⚠ Choose a classification.',
  ]);
  await expect(page.getByLabel('Last Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Last Name')).toHaveAccessibleDescription('Enter your last name.');
  await expect(page.getByLabel('First Name')).not.toHaveAttribute('aria-invalid');

  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Middle Initial').fill('QX');
  await expect(page.getByLabel('Middle Initial')).toHaveValue('Q');
  await page.getByLabel('Last Name').fill('Villanueva');
  // A field fixed stops saying so.
  await expect(page.getByLabel('Last Name')).not.toHaveAttribute('aria-invalid');
  await expect(page.locator('.field-error')).toHaveCount(6);
  const contact = page.getByLabel('Contact Number');
  await expect(contact).toHaveAttribute('placeholder', '+63XXX-XXX-XXXX');
  await expect(contact).toHaveAttribute('maxlength', '18');
  await contact.pressSequentially('09175550101');
  await expect(contact).toHaveValue('(+63) 917 555 0101');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Company Name').fill('Villanueva Meats');
  await page.getByLabel('LTO Number').pressSequentially('lto-2026-0001x');
  await expect(page.getByLabel('LTO Number')).toHaveValue('LTO-2026-000');
  const classification = page.getByLabel('Client Classification');
  await expect(classification.getByRole('option')).toHaveCount(12); // the placeholder and eleven options
  await classification.selectOption('Others');
  await page.getByLabel('Specify Classification').fill('Feed mill');

  const mark = lab.mailbox.mark();
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page).toHaveURL(/\/tfaverify$/);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
  await expect(page.getByLabel('Authentication code')).toBeFocused();
  await expect(page.getByRole('button', { name: 'Resend code' })).toBeDisabled();
  await page.getByLabel('Authentication code').fill(await codeFrom(lab, email, 'Verify your e-mail', mark));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page).toHaveURL(/\/registered$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for registering' })).toBeVisible();
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await logInThroughScreens(page, lab, username, email, PASSWORD);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${username}!`);
});

test('a taken e-mail is refused with the server message', async ({ page, lab }) => {
  await page.goto('/register');
  await page.getByLabel('First Name').fill('Dana');
  await page.getByLabel('Last Name').fill('Cruz');
  await page.getByLabel('Contact Number').fill('9171234567');
  await page.getByLabel('Email', { exact: true }).fill(lab.demo.client.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Company Name').fill('Demo Meat Traders Inc.');
  await page.getByLabel('LTO Number').fill('LTO-1');
  await page.getByLabel('Client Classification').selectOption('Importer');
  expect(await alertAfter(page, 'Register')).toBe('An account with this e-mail already exists.');
  await expect(page).toHaveURL(/\/register$/);
});

test('forgot password: code, new password, then log in with it', async ({ page, lab }) => {
  const { username, email } = await registeredClient(page, lab);
  await page.goto('/login');
  await page.getByRole('button', { name: 'Forget Password?' }).click();
  await expect(page).toHaveURL(/\/forget$/);
  // The route's code loads after the URL changes; until then the login form (with its own Email field) is shown.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Forgot Password');
  await page.getByLabel('Email', { exact: true }).fill(email);
  const mark = lab.mailbox.mark();
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await expect(page).toHaveURL(new RegExp(`/tfa-forgot-pass/${email}$`));
  await expect(page.getByRole('button', { name: 'Resend code' })).toBeDisabled();
  const code = await codeFrom(lab, email, 'password reset code', mark);

  await page.getByLabel('Reset code').fill(code === '000000' ? '111111' : '000000');
  expect(await alertAfter(page, 'Verify OTP')).toBe('The OTP you have provided is incorrect or expired');
  await page.getByLabel('Reset code').fill(code);
  await page.getByRole('button', { name: 'Verify OTP' }).click();
  await expect(page).toHaveURL(new RegExp(`/change-pass/${email}$`));

  const fresh = 'my new passphrase';
  await page.getByLabel('New Password').fill(fresh);
  await page.getByLabel('Repeat Password').fill(`${fresh}!`);
  expect(await alertAfter(page, 'Change Password')).toBe('Please verify that the password you have input is correct');
  await page.getByRole('button', { name: 'Show repeat password' }).click();
  await expect(page.getByLabel('Repeat Password')).toHaveAttribute('type', 'text');
  await page.getByLabel('Repeat Password').fill(fresh);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page).toHaveURL(/\/password-changed$/);
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  expect(await alertAfter(page, 'Log In')).toBe('Your password is incorrect or this account does not exist.');
  await logInThroughScreens(page, lab, email, email, fresh);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${username}!`);
});

test('a wrong password shows the login alert and stays on /login', async ({ page, lab }) => {
  const { username } = await registeredClient(page, lab);
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  expect(await alertAfter(page, 'Log In')).toBe('Your password is incorrect or this account does not exist.');
  await expect(page).toHaveURL(/\/login$/);
});

test('an unknown e-mail on /forget goes to /not-in-system, whose Go Back returns to /forget', async ({ page }) => {
  await page.goto('/forget');
  await page.getByLabel('Email', { exact: true }).fill('nobody@example.test');
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await expect(page).toHaveURL(/\/not-in-system$/);
  await expect(page.getByText('This e-mail is not in the system.')).toBeVisible();
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/forget$/);
});

test('a logged-in user opening /login or /register lands on its home', async ({ page, lab }) => {
  const { username, email } = await registeredClient(page, lab);
  const { userId } = await signIn(page, lab, email, PASSWORD);
  for (const path of ['/login', '/register', '/forget']) {
    await page.goto(path);
    await expect(page, `visiting ${path}`).toHaveURL(new RegExp(`/home/client/${userId}$`));
  }
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${username}!`);
});

test('the account forms have no serious accessibility violations', async ({ page }) => {
  for (const path of ['/register', '/forget', '/tfaverify', '/tfa-forgot-pass/someone@example.test', '/change-pass/someone@example.test']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    if (path === '/register') await page.getByLabel('Client Classification').selectOption('Others');
    await expectNoAxeViolations(page, { atLeast: 'serious', wholePage: true });
  }
});
