import { INVITATION_MESSAGES } from '@portal/contracts';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { OutletChoices, PlaceList, RoleChoices } from './invite-user-fields';
import { PlacePicker } from './invite-place-pickers';
import { useInviteUser } from './use-invite-user';

export { chosenScopes, missingPlace, validationToast, visibleOutlets } from './use-invite-user';

const M = INVITATION_MESSAGES;

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
  const { options, form, roles, roleIds, outlets, scopes, toggleRole, submit, close, missing } = useInviteUser({
    open,
    onOpenChange,
    onInvited,
  });
  const { data, error, isLoading } = options;
  const {
    control,
    formState: { errors, isSubmitting },
  } = form;
  const noOutlet = Boolean(missing);

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
        <InviteeFields form={form} />
        <RoleChoices
          roles={roles}
          roleIds={roleIds}
          isLoading={isLoading}
          failed={Boolean(error)}
          error={errors.roleIds ? (errors.roleIds.message ?? '') : undefined}
          onToggle={toggleRole}
        />
        <OutletChoices
          control={control}
          label={roleIds.length > 0 && !scopes.has('outlet') ? 'Select Outlets (optional)' : 'Select Outlets'}
          isLoading={isLoading}
          failed={Boolean(error)}
          anyOutlets={Boolean(data?.outlets.length)}
          roleIds={roleIds}
          outlets={outlets}
        />
        {scopes.has('store') && (
          <PlacePicker
            label="Select Stores"
            emptyText="No stores where you may invite."
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

/** First name, last name and email of the person invited, each with its error. */
function InviteeFields({ form }: { form: ReturnType<typeof useInviteUser>['form'] }) {
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <>
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
    </>
  );
}
