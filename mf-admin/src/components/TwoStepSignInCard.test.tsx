import { type FactorStatus, MFA_REQUIRED_CANNOT_DISABLE, WRONG_CODE_MESSAGE } from '@dental/shared';
import { createFakeApi, type FakeApi, findDialog, refusal, renderScreen } from '@dental/shared/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { TwoStepSignInCard } from './TwoStepSignInCard';

const OFF: FactorStatus = { totp: false, enabled_at: null, recovery_codes_left: 0, required: false };
const ON: FactorStatus = {
  totp: true,
  enabled_at: '2026-01-05T10:00:00Z',
  recovery_codes_left: 8,
  required: false,
};
const SETUP = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/Clinic:receptionist?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
};
const CODES = ['aaaa-bbbb-cccc', 'dddd-eeee-ffff', 'gggg-hhhh-iiii'];

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  // jsdom draws no canvas: the QR code finds no context and draws nothing (the key shows as text).
  jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => null);
});
afterEach(() => {
  api.restore();
  jest.restoreAllMocks();
});

const TURN_ON = 'Turn on two-step sign-in';
const TURN_OFF = 'Turn off two-step sign-in';
const NEW_CODES = 'New recovery codes';

/** The card as it first reads this status; any later read answers `after` (by default the same). */
async function renderCard(status: FactorStatus, after: FactorStatus = status) {
  api.onGet('/auth/mfa').replyOnce(200, status).onGet('/auth/mfa').reply(200, after);
  const view = renderScreen(<TwoStepSignInCard />);
  await screen.findByText(status.totp ? 'On' : 'Off.');
  return view;
}

/** Waits until no dialog with this title is open. */
async function dialogGone(title: string) {
  await waitFor(() =>
    expect(
      screen
        .queryAllByRole('dialog')
        .some((dialog) =>
          Array.from(dialog.querySelectorAll('.ant-modal-title')).some(
            (heading) => heading.textContent === title,
          ),
        ),
    ).toBe(false),
  );
}

describe('TwoStepSignInCard: turning it on', () => {
  it("a refusal about a field this step does not show is said in the dialog's banner", async () => {
    api.onPost('/auth/mfa/totp/setup').reply(400, {
      message: 'Invalid code',
      errors: [{ field: 'code', message: 'Enter the 6-digit code from your authenticator app' }],
    });
    const view = await renderCard(OFF);
    await view.user.click(screen.getByRole('button', { name: TURN_ON }));
    const dialog = within(await findDialog(TURN_ON));
    await view.user.type(dialog.getByLabelText('Current password'), 'correct horse');
    await view.user.click(dialog.getByRole('button', { name: 'Continue' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'Enter the 6-digit code from your authenticator app',
    );
  });

  it('asks for the password, shows the key, takes a code, shows the recovery codes, then reads the status again', async () => {
    api.onPost('/auth/mfa/totp/setup').reply(200, SETUP);
    api.onPost('/auth/mfa/totp/enable').reply(200, { recovery_codes: CODES });
    const view = await renderCard(OFF, { ...ON, recovery_codes_left: CODES.length });
    expect(screen.queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();

    await view.user.click(screen.getByRole('button', { name: TURN_ON }));
    const dialog = within(await findDialog(TURN_ON));
    // Off: the password alone proves it is you; no code is asked for.
    expect(dialog.queryByLabelText('Code from your authenticator app')).not.toBeInTheDocument();
    expect(dialog.queryByRole('button', { name: 'Use a recovery code' })).not.toBeInTheDocument();

    await view.user.click(dialog.getByRole('button', { name: 'Continue' }));
    expect(await dialog.findByText('Enter your current password')).toBeInTheDocument();
    expect(api.sent('post')).toHaveLength(0);

    await view.user.type(dialog.getByLabelText('Current password'), 'correct horse');
    await view.user.click(dialog.getByRole('checkbox', { name: 'Sign out my other sessions' }));
    await view.user.click(dialog.getByRole('button', { name: 'Continue' }));

    expect(await dialog.findByTestId('totp-key')).toHaveTextContent(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    // The other sessions end when the key is confirmed, not at setup.
    expect(api.sent('post', '/auth/mfa/totp/setup').map((sent) => sent.body)).toEqual([
      { password: 'correct horse' },
    ]);
    expect(api.sent('post', '/auth/mfa/totp/enable')).toHaveLength(0);

    await view.user.type(dialog.getByLabelText('Code from the app'), '123456');
    await view.user.click(dialog.getByRole('button', { name: 'Turn on' }));

    const list = await dialog.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(api.sent('post', '/auth/mfa/totp/enable').map((sent) => sent.body)).toEqual([
      { code: '123456', end_other_sessions: true },
    ]);
    expect(api.sent('get', '/auth/mfa')).toHaveLength(1);

    await view.user.click(dialog.getByRole('button', { name: 'I have saved my recovery codes' }));
    await dialogGone(TURN_ON);
    expect(await screen.findByText('Two-step sign-in is on.')).toBeInTheDocument();
    expect(await screen.findByText('On')).toBeInTheDocument();
    expect(screen.queryByText('Off.')).not.toBeInTheDocument();
    expect(screen.getByText(/3 of your recovery codes are left/)).toBeInTheDocument();
    expect(api.sent('get', '/auth/mfa')).toHaveLength(2);
  });

  it('a wrong first code: the refusal shows beside the code field and the key stays', async () => {
    api.onPost('/auth/mfa/totp/setup').reply(200, SETUP);
    api
      .onPost('/auth/mfa/totp/enable')
      .reply(400, refusal(WRONG_CODE_MESSAGE, [{ field: 'code', message: WRONG_CODE_MESSAGE }]));
    const view = await renderCard(OFF);
    await view.user.click(screen.getByRole('button', { name: TURN_ON }));
    const dialog = within(await findDialog(TURN_ON));
    await view.user.type(dialog.getByLabelText('Current password'), 'correct horse');
    await view.user.click(dialog.getByRole('button', { name: 'Continue' }));
    await view.user.type(await dialog.findByLabelText('Code from the app'), '000000');
    await view.user.click(dialog.getByRole('button', { name: 'Turn on' }));

    const refused = await dialog.findByText(WRONG_CODE_MESSAGE);
    // Beside the field (its error list), not in the dialog's banner.
    const field = dialog.getByLabelText('Code from the app');
    expect(refused.closest('.ant-form-item')).toBe(field.closest('.ant-form-item'));
    expect(dialog.getAllByText(WRONG_CODE_MESSAGE)).toHaveLength(1);
    expect(field).toHaveValue('000000');
    expect(dialog.getByTestId('totp-key')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Turn on' })).toBeInTheDocument();
    expect(dialog.queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
    expect(api.sent('post', '/auth/mfa/totp/enable').map((sent) => sent.body)).toEqual([
      { code: '000000', end_other_sessions: false },
    ]);
    // Nothing changed: the status is not read again.
    expect(api.sent('get', '/auth/mfa')).toHaveLength(1);
  });
});

describe('TwoStepSignInCard: when it is on', () => {
  it('required by the clinic: no Turn off, and the card says why', async () => {
    await renderCard({ ...ON, required: true });
    expect(screen.getByText(MFA_REQUIRED_CANNOT_DISABLE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: NEW_CODES })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Move to a new phone' })).toBeInTheDocument();
    expect(screen.getByText(/8 of your recovery codes are left/)).toBeInTheDocument();
  });

  it('not required: Turn off asks for the password and a code, sends them, and says it is off', async () => {
    const TURNED_OFF = 'Two-step sign-in was turned off.';
    api.onDelete('/auth/mfa/totp').reply(200, { message: TURNED_OFF });
    const view = await renderCard(ON, OFF);
    expect(screen.queryByText(MFA_REQUIRED_CANNOT_DISABLE)).not.toBeInTheDocument();

    await view.user.click(screen.getByRole('button', { name: 'Turn off' }));
    const dialog = within(await findDialog(TURN_OFF));
    await view.user.click(dialog.getByRole('button', { name: 'Turn off' }));
    expect(await dialog.findByText('Enter your current password')).toBeInTheDocument();
    expect(await dialog.findByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    expect(api.sent('delete')).toHaveLength(0);

    await view.user.type(dialog.getByLabelText('Current password'), 'correct horse');
    await view.user.type(dialog.getByLabelText('Code from your authenticator app'), '654321');
    await view.user.click(dialog.getByRole('button', { name: 'Turn off' }));

    expect(await screen.findByText(TURNED_OFF)).toBeInTheDocument();
    expect(api.sent('delete', '/auth/mfa/totp').map((sent) => sent.body)).toEqual([
      { password: 'correct horse', code: '654321', end_other_sessions: false },
    ]);
    await dialogGone(TURN_OFF);
    expect(await screen.findByText('Off.')).toBeInTheDocument();
    expect(api.sent('get', '/auth/mfa')).toHaveLength(2);
  });

  it('"Use a recovery code" asks for a recovery code instead and sends it in place of the code', async () => {
    api.onPost('/auth/mfa/recovery-codes').reply(200, { recovery_codes: CODES });
    const view = await renderCard(ON, { ...ON, recovery_codes_left: CODES.length });

    await view.user.click(screen.getByRole('button', { name: NEW_CODES }));
    const dialog = within(await findDialog(NEW_CODES));
    expect(dialog.getByLabelText('Code from your authenticator app')).toBeInTheDocument();
    await view.user.click(dialog.getByRole('button', { name: 'Use a recovery code' }));

    const recovery = await dialog.findByLabelText('Recovery code');
    expect(dialog.queryByLabelText('Code from your authenticator app')).not.toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Use a code from the app' })).toBeInTheDocument();
    await view.user.type(dialog.getByLabelText('Current password'), 'correct horse');
    await view.user.type(recovery, 'zzzz-yyyy-xxxx');
    await view.user.click(dialog.getByRole('button', { name: 'Continue' }));

    const list = await dialog.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(api.sent('post', '/auth/mfa/recovery-codes').map((sent) => sent.body)).toEqual([
      { password: 'correct horse', recovery_code: 'zzzz-yyyy-xxxx', end_other_sessions: false },
    ]);

    await view.user.click(dialog.getByRole('button', { name: 'I have saved my recovery codes' }));
    await dialogGone(NEW_CODES);
    expect(
      await screen.findByText('New recovery codes were made; the old ones no longer work.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(api.sent('get', '/auth/mfa')).toHaveLength(2));
  });
});
