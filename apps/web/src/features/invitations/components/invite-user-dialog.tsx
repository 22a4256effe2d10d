import { useMemo } from 'react';
import { Controller, useForm, type Control, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { useSWRConfig } from 'swr';
import {
  GRANT_MESSAGES,
  INVITATION_MESSAGES,
  createInvitationBodySchema,
  type GrantableOutlet,
  type GrantableRole,
  type ScopeType,
} from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/feedback';
import { Field, Label, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { createInvitation, useInvitationOptions } from '../api/invitations';

type FormIn = z.input<typeof createInvitationBodySchema>;
type FormOut = z.output<typeof createInvitationBodySchema>;
const EMPTY: FormIn = { firstName: '', lastName: '', email: '', roleIds: [], outletIds: [], storeIds: [], boardIds: [] };
const M = INVITATION_MESSAGES;

/** The toast for the first failed rule, in the spec's order (spec 000 §5, §8). */
export function validationToast(errors: FieldErrors<FormIn>): { title: string; description: string } {
  if (errors.firstName || errors.lastName || errors.roleIds) return { title: M.missingInfoTitle, description: M.missingInfo };
  if (errors.email) return { title: M.invalidEmailTitle, description: M.invalidEmail };
  return { title: M.outletRequiredTitle, description: M.outletRequired };
}

/**
 * The outlets the dialog lists for the chosen roles (spec 000 §5): none until a role is chosen; the system
 * admin outlets only when a chosen role grants them (labelled 'System Default - Optional').
 */
export function visibleOutlets(outlets: GrantableOutlet[], roles: GrantableRole[], roleIds: number[]): GrantableOutlet[] {
  if (!roleIds.length) return [];
  const adminAllowed = roles.some((r) => roleIds.includes(r.id) && r.grantsAdminOutlet);
  return outlets.filter((o) => !o.isAdminOutlet || adminAllowed);
}

/** The scope types of the chosen roles (ARCHITECTURE §11): which place lists the dialog asks for. */
export const chosenScopes = (roles: GrantableRole[], roleIds: number[]) =>
  new Set<ScopeType>(roles.filter((r) => roleIds.includes(r.id)).map((r) => r.scopeType));

/** The first place list a chosen role needs and is empty: the toast for it, or null. */
export function missingPlace(scopes: Set<ScopeType>, v: { outletIds?: number[]; storeIds?: number[]; boardIds?: number[] }) {
  if (scopes.has('outlet') && !v.outletIds?.length) return { title: M.outletRequiredTitle, description: M.outletRequired };
  if (scopes.has('store') && !v.storeIds?.length)
    return { title: 'Store Required', description: GRANT_MESSAGES.scopeRequired('This role', 'store') };
  if (scopes.has('board') && !v.boardIds?.length)
    return { title: 'Board Required', description: GRANT_MESSAGES.scopeRequired('This role', 'board') };
  return null;
}

function CheckRow({
  id,
  checked,
  onChange,
  label,
  detail,
}: {
  id: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  label: string;
  detail?: string | null;
}) {
  return (
    <div className="flex items-start gap-3 rounded-md px-2 py-1.5 hover:bg-stone-50">
      <Checkbox id={id} className="mt-0.5" checked={checked} onCheckedChange={(v) => onChange(v === true)} />
      <Label htmlFor={id} className="cursor-pointer font-normal leading-snug">
        {label}
        {detail && <span className="block text-xs text-stone-500">{detail}</span>}
      </Label>
    </div>
  );
}

/** A checkbox list of stores or boards for store- and board-level roles (ARCHITECTURE §11). */
function PlaceList({
  legend,
  empty,
  name,
  control,
  places,
}: {
  legend: string;
  empty: string;
  name: 'storeIds' | 'boardIds';
  control: Control<FormIn, unknown, FormOut>;
  places: { id: number; label: string; detail: string }[];
}) {
  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium text-stone-800">{legend}</legend>
      <div className="max-h-52 overflow-y-auto rounded-md border border-stone-200 p-1">
        {places.length === 0 ? (
          <p className="px-2 py-1.5 text-sm text-stone-500">{empty}</p>
        ) : (
          <Controller
            control={control}
            name={name}
            render={({ field }) => (
              <>
                {places.map((p) => (
                  <CheckRow
                    key={p.id}
                    id={`invite-${name}-${p.id}`}
                    checked={(field.value ?? []).includes(p.id)}
                    onChange={(on) => field.onChange(on ? [...(field.value ?? []), p.id] : (field.value ?? []).filter((id) => id !== p.id))}
                    label={p.label}
                    detail={p.detail}
                  />
                ))}
              </>
            )}
          />
        )}
      </div>
    </fieldset>
  );
}

/**
 * Send User Invitation (spec 000 §2 Invite dialog, §4, §5, §8): first and last name, email, User Roles and
 * Select Outlets as checkbox lists of what the inviter may grant (GET /invitations/options) — and Select Stores
 * or Select Boards when a chosen role is held at stores or boards (ARCHITECTURE §11); Send Invitation
 * ('Sending...') is disabled until each chosen role has a place of its kind, with the hint. Invalid input shows the spec's toast;
 * success toasts 'Invitation Sent', resets and closes; a failure keeps the dialog open with an error toast.
 */
export function InviteUserDialog({
  open,
  onOpenChange,
  onInvited,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onInvited?: () => void;
}) {
  const { data, error, isLoading } = useInvitationOptions(open);
  const { mutate } = useSWRConfig();
  const {
    register,
    control,
    handleSubmit,
    watch,
    setValue,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createInvitationBodySchema),
    defaultValues: EMPTY,
  });
  const watchedRoles = watch('roleIds');
  const roleIds = useMemo(() => watchedRoles ?? [], [watchedRoles]);
  const outletIds = watch('outletIds') ?? [];
  const storeIds = watch('storeIds') ?? [];
  const boardIds = watch('boardIds') ?? [];
  const roles = useMemo(() => data?.roles ?? [], [data]);
  const outlets = useMemo(() => visibleOutlets(data?.outlets ?? [], roles, roleIds), [data, roles, roleIds]);
  const scopes = chosenScopes(roles, roleIds);

  const close = (next: boolean) => {
    if (!next) reset(EMPTY);
    onOpenChange(next);
  };

  const toggleRole = (role: GrantableRole, on: boolean) => {
    const next = on ? [...roleIds, role.id] : roleIds.filter((id) => id !== role.id);
    setValue('roleIds', next, { shouldValidate: Boolean(errors.roleIds) });
    // Choosing a role that grants the system admin outlets clears the chosen outlets (spec 000 §4).
    if (on && role.grantsAdminOutlet) setValue('outletIds', []);
    else {
      const allowed = new Set(visibleOutlets(data?.outlets ?? [], roles, next).map((o) => o.id));
      setValue(
        'outletIds',
        outletIds.filter((id) => allowed.has(id)),
      );
    }
  };

  const submit = handleSubmit(
    async (body) => {
      const missing = missingPlace(scopes, body);
      if (missing) {
        notify({ ...missing, variant: 'destructive' });
        return;
      }
      // Only the places the chosen roles are held at (ARCHITECTURE §11); outlets stay (optional memberships).
      if (!scopes.has('store')) body.storeIds = [];
      if (!scopes.has('board')) body.boardIds = [];
      try {
        await createInvitation(body);
        notify({ title: M.sentTitle, description: M.sent(body.email), variant: 'success' });
        reset(EMPTY);
        onOpenChange(false);
        onInvited?.();
        void mutate((key) => typeof key === 'string' && key.startsWith('/admin/invitations'));
      } catch (e) {
        notify({ title: 'Error', description: (e instanceof ApiError && e.status !== 0 && e.message) || M.failed, variant: 'destructive' });
      }
    },
    (errs) => notify({ ...validationToast(errs), variant: 'destructive' }),
  );

  const missing = roleIds.length ? missingPlace(scopes, { outletIds, storeIds, boardIds }) : { title: '', description: '' };
  const noOutlet = Boolean(missing);
  let outletBody;
  if (isLoading)
    outletBody = (
      <p className="flex items-center gap-2 px-2 py-1.5 text-sm text-stone-500">
        <Spinner label={M.loadingOutlets} />
        {M.loadingOutlets}
      </p>
    );
  else if (error)
    outletBody = (
      <p role="alert" className="px-2 py-1.5 text-sm text-red-600">
        {M.failedOutlets}
      </p>
    );
  else if (!data?.outlets.length) outletBody = <p className="px-2 py-1.5 text-sm text-stone-500">{M.noAccessibleOutlets}</p>;
  else if (!roleIds.length) outletBody = <p className="px-2 py-1.5 text-sm text-stone-500">{M.selectRolesFirst}</p>;
  else if (!outlets.length) outletBody = <p className="px-2 py-1.5 text-sm text-stone-500">{M.noOutletsForRoles}</p>;
  else {
    outletBody = (
      <Controller
        control={control}
        name="outletIds"
        render={({ field }) => (
          <>
            {outlets.map((o) => (
              <CheckRow
                key={o.id}
                id={`invite-outlet-${o.id}`}
                checked={(field.value ?? []).includes(o.id)}
                onChange={(on) => field.onChange(on ? [...(field.value ?? []), o.id] : (field.value ?? []).filter((id) => id !== o.id))}
                label={o.isAdminOutlet ? `${o.name} (${M.adminOutletLabel})` : o.name}
                detail={[o.code, o.city, o.boardName].filter(Boolean).join(' · ')}
              />
            ))}
          </>
        )}
      />
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Send User Invitation"
      className="max-w-xl"
      description="The person gets an email with a link to create their account (valid for 7 days)."
      footer={
        <>
          <Button type="button" variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button
            type="submit"
            form="invite-user-form"
            loading={isSubmitting}
            disabled={noOutlet}
            aria-describedby={noOutlet ? 'invite-outlet-hint' : undefined}
          >
            {isSubmitting ? 'Sending...' : 'Send Invitation'}
          </Button>
        </>
      }
    >
      <form id="invite-user-form" onSubmit={submit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="invite-first-name" label="First Name" error={errors.firstName?.message}>
            <Input {...describedBy('invite-first-name', errors.firstName?.message)} autoComplete="off" {...register('firstName')} />
          </Field>
          <Field id="invite-last-name" label="Last Name" error={errors.lastName?.message}>
            <Input {...describedBy('invite-last-name', errors.lastName?.message)} autoComplete="off" {...register('lastName')} />
          </Field>
        </div>
        <Field id="invite-email" label="Email Address" error={errors.email?.message}>
          <Input
            type="email"
            inputMode="email"
            {...describedBy('invite-email', errors.email?.message)}
            autoComplete="off"
            {...register('email')}
          />
        </Field>
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium text-stone-800">User Roles</legend>
          <div className="max-h-44 overflow-y-auto rounded-md border border-stone-200 p-1" aria-invalid={errors.roleIds ? true : undefined}>
            {isLoading && <p className="px-2 py-1.5 text-sm text-stone-500">Loading roles...</p>}
            {!isLoading && !roles.length && (
              <p className="px-2 py-1.5 text-sm text-stone-500">{error ? 'Failed to load roles.' : 'No roles available.'}</p>
            )}
            {roles.map((r) => (
              <CheckRow
                key={r.id}
                id={`invite-role-${r.id}`}
                checked={roleIds.includes(r.id)}
                onChange={(on) => toggleRole(r, on)}
                label={r.name}
                detail={r.description}
              />
            ))}
          </div>
          {errors.roleIds && (
            <p role="alert" className="text-sm text-red-600">
              {errors.roleIds.message}
            </p>
          )}
        </fieldset>
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium text-stone-800">
            Select Outlets{roleIds.length > 0 && !scopes.has('outlet') && <span className="font-normal text-stone-500"> (optional)</span>}
          </legend>
          <div className="max-h-52 overflow-y-auto rounded-md border border-stone-200 p-1">{outletBody}</div>
        </fieldset>
        {scopes.has('store') && (
          <PlaceList
            legend="Select Stores"
            empty="No stores where you may invite."
            name="storeIds"
            control={control}
            places={(data?.stores ?? []).map((s) => ({
              id: s.id,
              label: s.name,
              detail: [s.warehouseCode, s.city, s.boardName].filter(Boolean).join(' · '),
            }))}
          />
        )}
        {scopes.has('board') && (
          <PlaceList
            legend="Select Boards"
            empty="No boards where you may invite."
            name="boardIds"
            control={control}
            places={(data?.boards ?? []).map((b) => ({ id: b.id, label: b.name, detail: `Board ${b.boardNumber}` }))}
          />
        )}
        {noOutlet && (
          <p id="invite-outlet-hint" className="text-xs text-stone-500">
            {scopes.has('outlet') || !roleIds.length ? M.outletHint : missing?.description}
          </p>
        )}
      </form>
    </Dialog>
  );
}
