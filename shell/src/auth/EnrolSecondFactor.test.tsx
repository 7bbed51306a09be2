import { ApiError, authApi, WRONG_CODE_MESSAGE } from '@dental/shared';
import { StylelessUi, staffMember } from '@dental/shared/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import EnrolSecondFactor from './EnrolSecondFactor';

const SETUP = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/Clinic:admin?secret=JBSWY3DP',
};
const GRANT = { token: 'tok', user: staffMember('receptionist') };
const CODES = ['aaaa-bbbb-cccc', 'dddd-eeee-ffff'];

const renderStep = () => {
  const onDone = jest.fn();
  const onRestart = jest.fn();
  render(
    <StylelessUi>
      <EnrolSecondFactor enrolmentToken="enrol-token" onDone={onDone} onRestart={onRestart} />
    </StylelessUi>,
  );
  return { onDone, onRestart, user: userEvent.setup() };
};

describe('EnrolSecondFactor (the clinic requires a second factor)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows the key as text, takes a first code, shows the recovery codes once, then signs in', async () => {
    const setup = jest.spyOn(authApi, 'startTotpSetup').mockResolvedValue(SETUP);
    const enable = jest
      .spyOn(authApi, 'enableTotp')
      .mockResolvedValue({ recoveryCodes: CODES, grant: GRANT });
    const view = renderStep();
    expect(await screen.findByTestId('totp-key')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    expect(setup).toHaveBeenCalledWith({}, 'enrol-token');

    await view.user.type(screen.getByLabelText('Code from the app'), '123456');
    await view.user.click(screen.getByRole('button', { name: 'Turn on and continue' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list).toHaveTextContent('aaaa-bbbb-cccc');
    expect(enable).toHaveBeenCalledWith('123456', { enrolmentToken: 'enrol-token' });
    expect(view.onDone).not.toHaveBeenCalled();
    await view.user.click(screen.getByRole('button', { name: 'I have saved my recovery codes' }));
    expect(view.onDone).toHaveBeenCalledWith(GRANT);
  });

  it("puts a wrong code's refusal beside the field", async () => {
    jest.spyOn(authApi, 'startTotpSetup').mockResolvedValue(SETUP);
    jest
      .spyOn(authApi, 'enableTotp')
      .mockRejectedValue(
        new ApiError(WRONG_CODE_MESSAGE, 400, [{ field: 'code', message: WRONG_CODE_MESSAGE }]),
      );
    const view = renderStep();
    await view.user.type(await screen.findByLabelText('Code from the app'), '123456{Enter}');
    expect(await screen.findByText(WRONG_CODE_MESSAGE)).toBeInTheDocument();
    expect(view.onDone).not.toHaveBeenCalled();
  });

  it('goes back to the password step when the enrolment token has lapsed', async () => {
    jest.spyOn(authApi, 'startTotpSetup').mockRejectedValue(new ApiError('The sign-in took too long.', 401));
    const view = renderStep();
    await waitFor(() => expect(view.onRestart).toHaveBeenCalledWith('The sign-in took too long.'));
  });
});
