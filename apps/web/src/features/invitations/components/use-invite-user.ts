import { useMemo } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
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
import { notify } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api';
import { createInvitation, useInvitationOptions } from '../api/invitations';

export type FormIn = z.input<typeof createInvitationBodySchema>;
export type FormOut = z.output<typeof createInvitationBodySchema>;
export const EMPTY: FormIn = { firstName: '', lastName: '', email: '', roleIds: [], outletIds: [], storeIds: [], boardIds: [] };
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

/**
 * Send User Invitation's form and options (spec 000 §4, §5, §8; ARCHITECTURE §11): the chosen roles, the outlets
 * they allow, the place lists they need (`scopes`), `missing` (the first place list still empty, or a blank entry
 * while no role is chosen), `close` (resets on close) and `submit` (the spec's toasts; on success reset, close,
 * `onInvited` and the invitation lists refreshed).
 */
export function useInviteUser({
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
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createInvitationBodySchema),
    defaultValues: EMPTY,
  });
  const {
    handleSubmit,
    watch,
    setValue,
    reset,
    formState: { errors },
  } = form;
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
  return { options: { data, error, isLoading }, form, roles, roleIds, outlets, scopes, toggleRole, submit, close, missing };
}
