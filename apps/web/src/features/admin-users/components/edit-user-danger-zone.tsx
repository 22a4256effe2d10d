import { Trash2 } from 'lucide-react';
import { AlertDialog } from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useDeleteUser } from './use-edit-user';

/**
 * Edit User's Danger Zone (spec 002 §8; super administrators only, `canDelete`): Delete User behind an
 * "Are you absolutely sure?" confirmation; the dialog cannot be dismissed while the delete runs.
 */
export function EditUserDangerZone({
  userId,
  name,
  email,
  canDelete,
}: {
  userId: string;
  name: string;
  email: string;
  canDelete: boolean;
}) {
  const { confirmOpen, setConfirmOpen, deleting, remove } = useDeleteUser(userId);
  return (
    <>
      {canDelete && (
        <Card className="border-red-200">
          <CardHeader>
            <CardTitle className="text-red-700">Danger Zone</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-stone-600">Permanently delete this user and all associated data. This action cannot be undone.</p>
            <Button variant="destructive" onClick={() => setConfirmOpen(true)} loading={deleting}>
              <Trash2 className="h-4 w-4" aria-hidden />
              {deleting ? 'Deleting...' : 'Delete User'}
            </Button>
          </CardContent>
        </Card>
      )}
      <AlertDialog
        open={confirmOpen}
        onOpenChange={(o) => {
          if (!deleting) setConfirmOpen(o);
        }}
        title="Are you absolutely sure?"
        description={<DeleteText name={name} email={email} />}
        action={
          <Button variant="destructive" onClick={() => void remove()} loading={deleting}>
            {deleting ? 'Deleting...' : 'Yes, delete user'}
          </Button>
        }
      />
    </>
  );
}

function DeleteText({ name, email }: { name: string; email: string }) {
  return (
    <p>
      This will permanently delete <strong>{name}</strong> ({email}) and remove all of their data: profile, sessions, carts, role and outlet
      assignments and pending invitations. Their orders are kept as “Deleted user”.
    </p>
  );
}
