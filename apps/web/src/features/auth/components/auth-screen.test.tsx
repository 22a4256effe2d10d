import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import * as toaster from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { useSession, type SessionValue } from '@/lib/session';
import { FakeApi, problem } from '@/test/fake-api';
import { renderRoute } from '@/test/render-route';
import { AuthScreen } from './auth-screen';

jest.mock('@/lib/session', () => ({ ...jest.requireActual('@/lib/session'), useSession: jest.fn() }));
jest.mock('@/components/ui/toaster', () => ({ notify: jest.fn() }));

const session = (over: Partial<SessionValue> = {}): SessionValue => ({
  status: 'unauthenticated',
  me: null,
  initError: false,
  hasPermission: () => false,
  hasAnyPermission: () => false,
  signIn: jest.fn(),
  signOut: jest.fn().mockResolvedValue(undefined),
  reload: jest.fn(),
  ...over,
});

function Where() {
  const l = useLocation();
  return <div data-testid="where">{`${l.pathname}${l.search}${l.hash}`}</div>;
}

let api: FakeApi;
function renderAt(url: string) {
  renderRoute(
    <Routes>
      <Route
        path="/auth"
        element={
          <>
            <AuthScreen />
            <Where />
          </>
        }
      />
      <Route
        path="/"
        element={
          <>
            <p>home</p>
            <Where />
          </>
        }
      />
      <Route
        path="/shop"
        element={
          <>
            <p>shop</p>
            <Where />
          </>
        }
      />
    </Routes>,
    { url, api },
  );
}

/** A refusal as the session's signIn rejects it (the session is mocked; the API is the fake). */
const apiError = (status: number, detail: string, code = 'x') =>
  new ApiError(status, { type: 'about:blank', title: 'T', status, code, detail });
const notify = toaster.notify as jest.Mock;

beforeEach(() => {
  (useSession as jest.Mock).mockReturnValue(session());
  notify.mockReset();
  api = new FakeApi();
});

describe('/auth login mode (spec 000 §2, §5)', () => {
  it('when nothing is entered, then the identifier and password messages show', async () => {
    renderAt('/auth');
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('You must provide either an email or phone number and a password')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email or phone')).toHaveAttribute('aria-invalid', 'true');
  });

  it('when the credentials are entered, then signIn gets the trimmed lower-cased email and the user goes to /shop', async () => {
    const signIn = jest.fn().mockResolvedValue({});
    (useSession as jest.Mock).mockReturnValue(session({ signIn }));
    renderAt('/auth');
    await userEvent.type(screen.getByLabelText('Email or phone'), ' Buyer@Example.com ');
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'Secret#1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/shop'));
    expect(signIn).toHaveBeenCalledWith('buyer@example.com', 'Secret#1');
  });

  it('when a phone number is entered, then signIn gets it as typed (the server normalises it)', async () => {
    const signIn = jest.fn().mockResolvedValue({});
    (useSession as jest.Mock).mockReturnValue(session({ signIn }));
    renderAt('/auth');
    await userEvent.type(screen.getByLabelText('Email or phone'), ' (515) 555-0100 ');
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'Secret#1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/shop'));
    expect(signIn).toHaveBeenCalledWith('(515) 555-0100', 'Secret#1');
  });

  it('when the field holds neither an address nor a phone number, then its message shows and nothing is sent', async () => {
    const signIn = jest.fn();
    (useSession as jest.Mock).mockReturnValue(session({ signIn }));
    renderAt('/auth');
    await userEvent.type(screen.getByLabelText('Email or phone'), 'buyer@example');
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'Secret#1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Email or phone'));
    await userEvent.type(screen.getByLabelText('Email or phone'), '555-01');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Please enter a valid phone number')).toBeInTheDocument();
    expect(signIn).not.toHaveBeenCalled();
  });

  it('when sign-in is refused, then Login Failed shows the server message and the form stays', async () => {
    const signIn = jest.fn().mockRejectedValue(apiError(401, 'Invalid email or password.', 'invalid_credentials'));
    (useSession as jest.Mock).mockReturnValue(session({ signIn }));
    renderAt('/auth');
    await userEvent.type(screen.getByLabelText('Email or phone'), 'buyer@example.com');
    await userEvent.type(screen.getByLabelText('Password', { exact: true }), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ title: 'Login Failed', description: 'Invalid email or password.', variant: 'destructive' }),
    );
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it('when the password toggle is pressed, then the password shows and hides', async () => {
    renderAt('/auth');
    const pw = screen.getByLabelText('Password', { exact: true });
    expect(pw).toHaveAttribute('type', 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(pw).toHaveAttribute('type', 'text');
  });

  it('when a signed-in user opens /auth, then they are sent to /', async () => {
    (useSession as jest.Mock).mockReturnValue(session({ status: 'authenticated' }));
    renderAt('/auth');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/));
  });

  it('when the session is still loading, then a spinner shows', () => {
    (useSession as jest.Mock).mockReturnValue(session({ status: 'loading' }));
    renderAt('/auth');
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Welcome Back' })).not.toBeInTheDocument();
  });

  it('when the page opens, then a background from /backgrounds is shown', () => {
    renderAt('/auth');
    expect(screen.getByTestId('auth-background').style.backgroundImage).toMatch(/\/backgrounds\/background-\d{2}\.svg/);
  });
});

describe('/auth forgot mode (spec 000 §2, §8)', () => {
  it('when Forgot Password? is followed and an address sent, then Check your email names it; Try again returns to the form', async () => {
    api.on('post', '/auth/password-recovery', { status: 202 });
    renderAt('/auth');
    await userEvent.click(screen.getByRole('link', { name: 'Forgot Password?' }));
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'buyer@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByText('buyer@example.com')).toBeInTheDocument();
    expect(screen.getByText(/spam/)).toBeInTheDocument();
    expect(api.calls).toContainEqual({ method: 'post', url: '/auth/password-recovery', body: { email: 'buyer@example.com' } });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back to login' }));
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
  });

  it('when recovery is rate-limited, then Too many requests shows', async () => {
    api.on('post', '/auth/password-recovery', problem(429, 'rate_limited', 'Too many requests'));
    renderAt('/auth?mode=forgot');
    await userEvent.type(screen.getByLabelText('Email'), 'buyer@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        title: 'Too many requests',
        description: 'Please wait a few minutes before requesting another password reset.',
        variant: 'destructive',
      }),
    );
  });
});

describe('/auth reset mode (spec 000 §2, §4, §5)', () => {
  const token = 'a'.repeat(43);

  it('when a recovery link opens, then reset mode shows and the URL is cleaned to /auth', async () => {
    renderAt(`/auth?intent=recovery#token=${token}`);
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/auth$/));
  });

  it('when a new password is typed, then the checklist ticks live', async () => {
    renderAt(`/auth?intent=recovery#token=${token}`);
    const list = await screen.findByRole('list', { name: 'Password requirements' });
    const item = (label: string) => screen.getByText(label).closest('li');
    expect(list.querySelectorAll('li[data-met="true"]')).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('New Password'), 'abc');
    expect(item('One lowercase letter')).toHaveAttribute('data-met', 'true');
    expect(item('At least 8 characters')).toHaveAttribute('data-met', 'false');
    await userEvent.type(screen.getByLabelText('New Password'), 'DEF12!');
    for (const label of ['At least 8 characters', 'One uppercase letter', 'One lowercase letter', 'One number', 'One special character']) {
      expect(item(label)).toHaveAttribute('data-met', 'true');
    }
  });

  it('when the passwords differ or are weak, then the rule messages show on the fields', async () => {
    renderAt(`/auth?intent=recovery#token=${token}`);
    await userEvent.type(await screen.findByLabelText('New Password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'other');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText("Passwords don't match")).toBeInTheDocument();
  });

  it('when the reset succeeds, then the user lands on /auth?mode=login with the success toast', async () => {
    api.on('post', '/auth/password-reset', { status: 204 });
    renderAt(`/auth?intent=recovery#token=${token}`);
    await userEvent.type(await screen.findByLabelText('New Password'), 'NewPass#2024');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'NewPass#2024');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/auth?mode=login'));
    expect(api.calls).toContainEqual({
      method: 'post',
      url: '/auth/password-reset',
      body: { token, password: 'NewPass#2024', confirmPassword: 'NewPass#2024' },
    });
    expect(notify).toHaveBeenCalledWith({
      title: 'Password updated successfully',
      description: 'Please log in with your new password.',
      variant: 'success',
    });
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
  });

  it('when the link has no token, then Invalid or Expired Reset Link offers a new one (forgot mode)', async () => {
    renderAt('/auth?intent=recovery');
    expect(await screen.findByRole('heading', { name: 'Invalid or Expired Reset Link' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Request new reset link' }));
    expect(screen.getByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
  });

  it('when the server says the token is used or expired, then the failure toast and the invalid-link panel show', async () => {
    api.on(
      'post',
      '/auth/password-reset',
      problem(400, 'reset_token_invalid', 'This password reset link is invalid or has expired. Please request a new one.'),
    );
    renderAt(`/auth?intent=recovery#token=${token}`);
    await userEvent.type(await screen.findByLabelText('New Password'), 'NewPass#2024');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'NewPass#2024');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByRole('heading', { name: 'Invalid or Expired Reset Link' })).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ title: 'Password reset failed', variant: 'destructive' }));
  });
});
