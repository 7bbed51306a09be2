import { TextDecoder, TextEncoder } from 'node:util';
import {
  ApiError,
  authApi,
  MFA_TOKEN_EXPIRED_MESSAGE,
  type SignInAnswer,
  useAuthStore,
  WRONG_CODE_MESSAGE,
} from '@dental/shared';
import { staffMember } from '@dental/shared/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

// React Router 7 needs TextEncoder at load time, which jest's jsdom environment lacks; it is provided
// before the router is required (an `import` would be hoisted above this line).
Object.assign(globalThis, { TextEncoder, TextDecoder });
const { MemoryRouter, Route, Routes, useLocation } =
  require('react-router-dom') as typeof import('react-router-dom');
const { LoginPage } = require('./LoginPage') as typeof import('./LoginPage');

const USER = staffMember('admin', { name: 'Alex Admin' });

function Landed() {
  const location = useLocation();
  return <p>Landed on {location.pathname}</p>;
}

const renderLogin = (from?: string) =>
  render(
    <MemoryRouter
      initialEntries={[
        { pathname: '/login', state: from ? { from: { pathname: from, search: '', hash: '' } } : null },
      ]}
    >
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="*" element={<Landed />} />
      </Routes>
    </MemoryRouter>,
  );

const usernameInput = () => screen.getByLabelText('Username or Email');
const passwordInput = () => screen.getByLabelText('Password');
const submit = () => screen.getByRole('button', { name: 'Sign in' });

describe('LoginPage', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    useAuthStore.setState({ status: 'anonymous', user: null, token: null, remember: false });
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('shows the sign-in form with the demo accounts', () => {
    renderLogin();
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(usernameInput()).toHaveValue('');
    expect(passwordInput()).toHaveAttribute('type', 'password');
    expect(screen.getByRole('checkbox', { name: 'Remember me' })).not.toBeChecked();
    expect(screen.getByRole('region', { name: 'Demo Accounts' })).toHaveTextContent('admin / admin123');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says why the last session ended when it was signed out for being idle', () => {
    useAuthStore.setState({ notice: 'You were signed out after 30 minutes without activity.' });
    renderLogin();
    expect(screen.getByRole('status')).toHaveTextContent(
      'You were signed out after 30 minutes without activity.',
    );
    useAuthStore.setState({ notice: null });
  });

  it('submitting empty fields shows "Please fill in all fields" and does not call the server', async () => {
    const login = jest.spyOn(authApi, 'login');
    const user = userEvent.setup();
    renderLogin();
    await user.click(submit());
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(login).not.toHaveBeenCalled();
  });

  it('a blank username or a missing password is refused the same way', async () => {
    const login = jest.spyOn(authApi, 'login');
    const user = userEvent.setup();
    renderLogin();
    await user.type(usernameInput(), '   ');
    await user.type(passwordInput(), 'admin123');
    await user.click(submit());
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all fields');

    await user.clear(passwordInput());
    await user.type(usernameInput(), 'admin');
    await user.click(submit());
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(login).not.toHaveBeenCalled();
  });

  it('the Show button reveals the password and Hide masks it again', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(passwordInput(), 's3cret!');
    expect(passwordInput()).toHaveAttribute('type', 'password');

    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(passwordInput()).toHaveAttribute('type', 'text');
    expect(passwordInput()).toHaveValue('s3cret!');
    expect(screen.getByRole('button', { name: 'Hide password' })).toHaveTextContent('Hide');

    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(passwordInput()).toHaveAttribute('type', 'password');
  });

  it("a refused sign-in shows the server's message in the banner and stays on the page", async () => {
    jest.spyOn(authApi, 'login').mockRejectedValue(new ApiError('Invalid username or password', 401));
    const user = userEvent.setup();
    renderLogin();
    await user.type(usernameInput(), 'admin');
    await user.type(passwordInput(), 'wrong');
    await user.click(submit());

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');
    expect(screen.queryByText(/Landed on/)).not.toBeInTheDocument();
    // The form can be used again.
    expect(submit()).toBeEnabled();
    expect(usernameInput()).toHaveValue('admin');
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('a locked account shows the lockout message from the server', async () => {
    jest
      .spyOn(authApi, 'login')
      .mockRejectedValue(new ApiError('Too many failed sign-in attempts. Try again in 15 minutes.', 429));
    const user = userEvent.setup();
    renderLogin();
    await user.type(usernameInput(), 'admin');
    await user.type(passwordInput(), 'admin123');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many failed sign-in attempts. Try again in 15 minutes.',
    );
  });

  it('signs in with the trimmed username and remember me, then goes to the dashboard', async () => {
    const login = jest
      .spyOn(authApi, 'login')
      .mockResolvedValue({ kind: 'signedIn', grant: { token: 'tok', user: USER } });
    const user = userEvent.setup();
    renderLogin();
    await user.type(usernameInput(), '  admin  ');
    await user.type(passwordInput(), 'admin123');
    await user.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await user.click(submit());

    expect(await screen.findByText('Landed on /')).toBeInTheDocument();
    expect(login).toHaveBeenCalledWith('admin', 'admin123', true);
    expect(localStorage.getItem('authToken')).toBe('tok');
  });

  it('goes back to the page the user was sent away from', async () => {
    jest.spyOn(authApi, 'login').mockResolvedValue({ kind: 'signedIn', grant: { token: 'tok', user: USER } });
    const user = userEvent.setup();
    renderLogin('/patients');
    await user.type(usernameInput(), 'admin');
    await user.type(passwordInput(), 'admin123{Enter}');
    expect(await screen.findByText('Landed on /patients')).toBeInTheDocument();
    expect(sessionStorage.getItem('authToken')).toBe('tok');
  });

  it('disables the form while signing in', async () => {
    let finish: (value: SignInAnswer) => void = () => {};
    jest.spyOn(authApi, 'login').mockReturnValue(
      new Promise((resolve) => {
        finish = resolve;
      }),
    );
    const user = userEvent.setup();
    renderLogin();
    await user.type(usernameInput(), 'admin');
    await user.type(passwordInput(), 'admin123');
    await user.click(submit());

    expect(screen.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
    expect(usernameInput()).toBeDisabled();
    finish({ kind: 'signedIn', grant: { token: 'tok', user: USER } });
    await waitFor(() => expect(screen.getByText('Landed on /')).toBeInTheDocument());
  });

  it('a user who is already signed in is sent on at once', () => {
    useAuthStore.setState({ status: 'authenticated', user: USER, token: 'tok' });
    renderLogin('/calendar');
    expect(screen.getByText('Landed on /calendar')).toBeInTheDocument();
  });

  it('Forgot password? explains who can reset it', async () => {
    const user = userEvent.setup();
    renderLogin();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(screen.getByRole('note')).toHaveTextContent(/administrator/i);
  });

  describe('with a second factor on', () => {
    const signInWithPassword = async () => {
      jest.spyOn(authApi, 'login').mockResolvedValue({ kind: 'code', mfaToken: 'step-token' });
      const user = userEvent.setup();
      renderLogin('/patients');
      await user.type(usernameInput(), 'admin');
      await user.type(passwordInput(), 'admin123{Enter}');
      expect(await screen.findByRole('heading', { name: 'Two-step sign-in' })).toBeInTheDocument();
      return user;
    };

    it('asks for the code from the app after the password, and then signs in', async () => {
      const verify = jest
        .spyOn(authApi, 'verifySecondFactor')
        .mockResolvedValue({ token: 'tok-2', user: USER });
      const user = await signInWithPassword();
      expect(useAuthStore.getState().status).toBe('anonymous');
      const code = screen.getByLabelText('Code');
      expect(code).toHaveFocus();
      await user.type(code, '123 456{Enter}');
      expect(await screen.findByText('Landed on /patients')).toBeInTheDocument();
      expect(verify).toHaveBeenCalledWith('step-token', { code: '123456' });
      expect(sessionStorage.getItem('authToken')).toBe('tok-2');
    });

    it("says what is wrong with a code before sending it, and the server's refusal after", async () => {
      const verify = jest
        .spyOn(authApi, 'verifySecondFactor')
        .mockRejectedValue(new ApiError(WRONG_CODE_MESSAGE, 401));
      const user = await signInWithPassword();
      await user.type(screen.getByLabelText('Code'), '12{Enter}');
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Enter the 6-digit code from your authenticator app',
      );
      expect(verify).not.toHaveBeenCalled();
      await user.clear(screen.getByLabelText('Code'));
      await user.type(screen.getByLabelText('Code'), '654321{Enter}');
      expect(await screen.findByRole('alert')).toHaveTextContent(WRONG_CODE_MESSAGE);
      expect(screen.getByLabelText('Code')).toBeEnabled();
    });

    it('takes a recovery code instead', async () => {
      const verify = jest
        .spyOn(authApi, 'verifySecondFactor')
        .mockResolvedValue({ token: 'tok-3', user: USER });
      const user = await signInWithPassword();
      await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
      await user.type(screen.getByLabelText('Recovery code'), 'ABCD-EFGH-JKMN{Enter}');
      expect(await screen.findByText('Landed on /patients')).toBeInTheDocument();
      expect(verify).toHaveBeenCalledWith('step-token', { recovery_code: 'abcdefghjkmn' });
    });

    it('goes back to the password when the step has lapsed', async () => {
      jest
        .spyOn(authApi, 'verifySecondFactor')
        .mockRejectedValue(new ApiError(MFA_TOKEN_EXPIRED_MESSAGE, 401));
      const user = await signInWithPassword();
      await user.type(screen.getByLabelText('Code'), '123456{Enter}');
      expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent(MFA_TOKEN_EXPIRED_MESSAGE);
      expect(passwordInput()).toHaveValue('');
    });
  });

  describe('with a password someone else chose (an imported clinic)', () => {
    const signInWithGivenPassword = async () => {
      jest.spyOn(authApi, 'login').mockResolvedValue({ kind: 'password', mfaToken: 'choose-token' });
      const user = userEvent.setup();
      renderLogin('/patients');
      await user.type(usernameInput(), 'admin');
      await user.type(passwordInput(), 'given-once{Enter}');
      expect(await screen.findByRole('heading', { name: 'Choose your password' })).toBeInTheDocument();
      return user;
    };

    it("asks for the account's own password, twice, then signs in", async () => {
      const choose = jest
        .spyOn(authApi, 'choosePassword')
        .mockResolvedValue({ kind: 'signedIn', grant: { token: 'tok-own', user: USER } });
      const user = await signInWithGivenPassword();
      expect(screen.getByLabelText('New password')).toHaveFocus();
      await user.type(screen.getByLabelText('New password'), 'short{Enter}');
      expect(screen.getByRole('alert')).toHaveTextContent('At least 8 characters');
      await user.clear(screen.getByLabelText('New password'));
      await user.type(screen.getByLabelText('New password'), 'my-own-quiet-harbour');
      await user.type(screen.getByLabelText('New password again'), 'my-own-quiet-harbor{Enter}');
      expect(screen.getByRole('alert')).toHaveTextContent('The two passwords are not the same');
      expect(choose).not.toHaveBeenCalled();
      await user.clear(screen.getByLabelText('New password again'));
      await user.type(screen.getByLabelText('New password again'), 'my-own-quiet-harbour{Enter}');
      expect(await screen.findByText('Landed on /patients')).toBeInTheDocument();
      expect(choose).toHaveBeenCalledWith('choose-token', 'my-own-quiet-harbour');
      expect(sessionStorage.getItem('authToken')).toBe('tok-own');
    });

    it("says the server's refusal of the new password, and goes on to the code step when a factor is on", async () => {
      const choose = jest
        .spyOn(authApi, 'choosePassword')
        .mockRejectedValueOnce(
          new ApiError('Invalid new_password', 400, [
            {
              field: 'new_password',
              message: 'This password is among the most common passwords: choose another',
            },
          ]),
        )
        .mockResolvedValueOnce({ kind: 'code', mfaToken: 'code-token' });
      const user = await signInWithGivenPassword();
      await user.type(screen.getByLabelText('New password'), 'password123');
      await user.type(screen.getByLabelText('New password again'), 'password123{Enter}');
      expect(await screen.findByRole('alert')).toHaveTextContent('among the most common passwords');
      await user.clear(screen.getByLabelText('New password'));
      await user.clear(screen.getByLabelText('New password again'));
      await user.type(screen.getByLabelText('New password'), 'my-own-quiet-harbour');
      await user.type(screen.getByLabelText('New password again'), 'my-own-quiet-harbour{Enter}');
      expect(await screen.findByRole('heading', { name: 'Two-step sign-in' })).toBeInTheDocument();
      expect(choose).toHaveBeenCalledTimes(2);
    });
  });
});
