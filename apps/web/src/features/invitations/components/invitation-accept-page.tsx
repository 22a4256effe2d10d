import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, Link2Off, Loader2, MailOpen } from 'lucide-react';
import {
  PROBLEM_CODES,
  INVITATION_MESSAGES,
  PASSWORD_CHECKLIST,
  acceptExistingUserFormSchema,
  acceptNewUserFormSchema,
  type PublicInvitation,
} from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { RequirementChecklist } from '@/components/ui/checklist';
import { Field, describedBy } from '@/components/ui/field';
import { Input, PasswordInput } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { acceptInvitation, getInvitation } from '../api/invitations';

const M = INVITATION_MESSAGES;

/** The invalid-state text for a refusal of GET or accept (spec 002 §8), or undefined when not a link problem. */
export function invalidMessage(e: unknown): string | undefined {
  if (!(e instanceof ApiError)) return undefined;
  switch (e.code) {
    case PROBLEM_CODES.invitationNotFound:
      return M.notFound;
    case PROBLEM_CODES.invitationExpired:
      return M.expired;
    case PROBLEM_CODES.invitationUsed:
      return M.used;
    case PROBLEM_CODES.invitationRevoked:
      return M.revoked;
    default:
      return undefined;
  }
}

type State =
  | { kind: 'loading' }
  | { kind: 'invalid'; message: string; retry?: boolean }
  | { kind: 'form'; invitation: PublicInvitation }
  | { kind: 'accepted'; invitation: PublicInvitation; isNewUser: boolean };

/** The page frame without the common header: the portal's name and a centred card. */
function Frame({ icon, title, description, children }: { icon: ReactNode; title: string; description?: ReactNode; children?: ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center bg-gradient-to-b from-brand-50 to-stone-100 px-4 py-8 sm:justify-center">
      <p className="mb-6 text-sm font-semibold uppercase tracking-wide text-brand-800">Liquor Ordering Portal</p>
      <section
        aria-labelledby="invitation-title"
        className="w-full max-w-lg rounded-xl border border-stone-200 bg-white p-6 shadow-xl sm:p-8"
      >
        <div className="mb-6 space-y-2 text-center">
          <div className="mx-auto mb-3 flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700" aria-hidden>
            {icon}
          </div>
          <h1 id="invitation-title" className="text-2xl font-bold tracking-tight text-stone-900">
            {title}
          </h1>
          {description && <div className="text-sm text-stone-600">{description}</div>}
        </div>
        {children}
      </section>
    </main>
  );
}

interface FormValues {
  firstName: string;
  lastName: string;
  phone?: string;
  password?: string;
  confirmPassword?: string;
}

/** What the invitation grants: email, roles, and the outlets, stores and boards it is held at. */
function InvitationSummary({ invitation }: { invitation: PublicInvitation }) {
  return (
    <dl className="grid gap-2 rounded-lg bg-stone-50 p-4 text-sm">
      <div>
        <dt className="font-medium text-stone-700">Email</dt>
        <dd className="break-all text-stone-900">{invitation.email}</dd>
      </div>
      <div>
        <dt className="font-medium text-stone-700">Roles</dt>
        <dd className="text-stone-900">{invitation.roleLabels.join(', ') || '—'}</dd>
      </div>
      {(invitation.outletLabels.length > 0 || (!invitation.storeLabels.length && !invitation.boardLabels.length)) && (
        <div>
          <dt className="font-medium text-stone-700">Outlets</dt>
          <dd className="text-stone-900">{invitation.outletLabels.join(', ') || '—'}</dd>
        </div>
      )}
      {invitation.storeLabels.length > 0 && (
        <div>
          <dt className="font-medium text-stone-700">Stores</dt>
          <dd className="text-stone-900">{invitation.storeLabels.join(', ')}</dd>
        </div>
      )}
      {invitation.boardLabels.length > 0 && (
        <div>
          <dt className="font-medium text-stone-700">Boards</dt>
          <dd className="text-stone-900">{invitation.boardLabels.join(', ')}</dd>
        </div>
      )}
    </dl>
  );
}

/**
 * The accept form (spec 002 §4, §5, §8) on react-hook-form with the contracts' schema (a password and its
 * confirmation for a new user): `submit` accepts the invitation; a link problem goes to `onInvalid`, any other
 * refusal toasts and marks the fields the API names.
 */
function useAcceptForm({
  token,
  invitation,
  onAccepted,
  onInvalid,
}: {
  token: string;
  invitation: PublicInvitation;
  onAccepted: (isNewUser: boolean) => void;
  onInvalid: (message: string) => void;
}) {
  const isNew = !invitation.userExists;
  const form = useForm<FormValues>({
    resolver: zodResolver(isNew ? acceptNewUserFormSchema : acceptExistingUserFormSchema) as never,
    defaultValues: { firstName: invitation.firstName, lastName: invitation.lastName, phone: '', password: '', confirmPassword: '' },
  });
  const { handleSubmit, watch, setError } = form;
  const password = watch('password') ?? '';
  const submit = handleSubmit(async (v) => {
    try {
      const res = await acceptInvitation(token, {
        firstName: v.firstName,
        lastName: v.lastName,
        phone: v.phone || null,
        ...(isNew ? { password: v.password, confirmPassword: v.confirmPassword } : {}),
      });
      onAccepted(res.isNewUser);
    } catch (e) {
      const invalid = invalidMessage(e);
      if (invalid) {
        onInvalid(invalid);
        return;
      }
      notify({
        title: 'Error',
        description: (e instanceof ApiError && e.status !== 0 && e.message) || 'Failed to accept invitation. Please try again.',
        variant: 'destructive',
      });
      if (e instanceof ApiError) {
        for (const f of ['firstName', 'lastName', 'phone', 'password', 'confirmPassword'] as const) {
          const m = e.fieldError(f);
          if (m) setError(f, { message: m });
        }
        // Another active account signs in with this phone: said on the phone field too.
        if (e.code === 'phone_taken') setError('phone', { message: e.message });
      }
    }
  });
  return { form, password, submit };
}

function AcceptForm({
  token,
  invitation,
  onAccepted,
  onInvalid,
}: {
  token: string;
  invitation: PublicInvitation;
  onAccepted: (isNewUser: boolean) => void;
  onInvalid: (message: string) => void;
}) {
  const isNew = !invitation.userExists;
  const {
    form: {
      register,
      formState: { errors, isSubmitting },
    },
    password,
    submit,
  } = useAcceptForm({ token, invitation, onAccepted, onInvalid });
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <InvitationSummary invitation={invitation} />
      {!isNew && (
        <p className="text-sm text-stone-600">
          You already have an account with this email. Accepting adds these roles and outlets to it; your password stays the same.
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="accept-first-name" label="First Name" error={errors.firstName?.message}>
          <Input {...describedBy('accept-first-name', errors.firstName?.message)} autoComplete="given-name" {...register('firstName')} />
        </Field>
        <Field id="accept-last-name" label="Last Name" error={errors.lastName?.message}>
          <Input {...describedBy('accept-last-name', errors.lastName?.message)} autoComplete="family-name" {...register('lastName')} />
        </Field>
      </div>
      <Field id="accept-phone" label="Phone (optional)" error={errors.phone?.message}>
        <Input
          type="tel"
          {...describedBy('accept-phone', errors.phone?.message)}
          autoComplete="tel"
          placeholder="(555) 555-0100"
          {...register('phone')}
        />
      </Field>
      {isNew && (
        <>
          <Field id="accept-password" label="Password" error={errors.password?.message}>
            <PasswordInput
              {...describedBy('accept-password', errors.password?.message)}
              autoComplete="new-password"
              aria-describedby={errors.password ? 'accept-password-error accept-checklist' : 'accept-checklist'}
              {...register('password')}
            />
          </Field>
          <RequirementChecklist id="accept-checklist" label="Password requirements" value={password} requirements={PASSWORD_CHECKLIST} />
          <Field id="accept-confirm" label="Confirm Password" error={errors.confirmPassword?.message}>
            <PasswordInput
              {...describedBy('accept-confirm', errors.confirmPassword?.message)}
              autoComplete="new-password"
              {...register('confirmPassword')}
            />
          </Field>
        </>
      )}
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting}>
        {isSubmitting ? 'Accepting...' : isNew ? 'Create Account' : 'Accept Invitation'}
      </Button>
    </form>
  );
}

/** Loads the invitation of `token` (a missing token is an invalid link); `retry` loads it again after a failure. */
function useInvitationState(token: string) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token) {
      setState({ kind: 'invalid', message: M.invalidLink });
      return;
    }
    let live = true;
    setState({ kind: 'loading' });
    getInvitation(token).then(
      (invitation) => {
        if (live) setState({ kind: 'form', invitation });
      },
      (e) => {
        if (live) setState({ kind: 'invalid', message: invalidMessage(e) ?? M.failedLoad, retry: !invalidMessage(e) });
      },
    );
    return () => {
      live = false;
    };
  }, [token, attempt]);
  return { state, setState, retry: () => setAttempt((n) => n + 1) };
}

/** Accepted: a new account is ready (welcome email) or the roles were added (confirmation email); Sign in. */
function Accepted({ email, isNewUser }: { email: string; isNewUser: boolean }) {
  return (
    <Frame
      icon={<CheckCircle2 className="h-6 w-6" />}
      title="Invitation accepted"
      description={
        isNewUser ? (
          <p>
            Your account is ready. A welcome email is on its way to{' '}
            <span className="inline-block max-w-full break-words font-medium text-stone-800">{email}</span>.
          </p>
        ) : (
          <p>
            Your account now has the new roles and outlets. A confirmation email is on its way to{' '}
            <span className="inline-block max-w-full break-words font-medium text-stone-800">{email}</span>.
          </p>
        )
      }
    >
      <Button asChild size="lg" className="w-full">
        <Link to="/auth?mode=login">Sign in</Link>
      </Button>
    </Frame>
  );
}

/**
 * The invitation acceptance page (spec 002 §2, §4, §5, §8) at /invitation/accept?inv=…, without the common
 * header: loading; invalid (missing link, not found, expired, used or withdrawn, failed to load: each its
 * message); the form (names, optional phone, and for a new user a password with confirmation and the live
 * checklist); accepted, with a link to sign in.
 */
export function InvitationAcceptPage() {
  const [params] = useSearchParams();
  const token = params.get('inv')?.trim() ?? '';
  const { state, setState, retry } = useInvitationState(token);

  useEffect(() => {
    document.title = 'Accept invitation · Liquor Ordering Portal';
  }, []);

  if (state.kind === 'loading') {
    return (
      <Frame icon={<Loader2 className="h-6 w-6 animate-spin" />} title="Loading invitation...">
        <p role="status" className="sr-only">
          Loading invitation
        </p>
      </Frame>
    );
  }
  if (state.kind === 'invalid') {
    return (
      <Frame icon={<Link2Off className="h-6 w-6" />} title="Invitation unavailable" description={<p role="alert">{state.message}</p>}>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-center">
          {state.retry && (
            <Button type="button" onClick={retry}>
              Try again
            </Button>
          )}
          <Button asChild variant="outline">
            <Link to="/auth?mode=login">Go to sign in</Link>
          </Button>
        </div>
      </Frame>
    );
  }
  if (state.kind === 'accepted') return <Accepted email={state.invitation.email} isNewUser={state.isNewUser} />;
  return (
    <Frame
      icon={<MailOpen className="h-6 w-6" />}
      title="Accept your invitation"
      description={
        <p>
          Welcome, {state.invitation.firstName}!{' '}
          {state.invitation.userExists ? 'Confirm your details to accept.' : 'Create your account to start ordering.'}
        </p>
      }
    >
      <AcceptForm
        token={token}
        invitation={state.invitation}
        onAccepted={(isNewUser) => setState({ kind: 'accepted', invitation: state.invitation, isNewUser })}
        onInvalid={(message) => setState({ kind: 'invalid', message })}
      />
    </Frame>
  );
}
