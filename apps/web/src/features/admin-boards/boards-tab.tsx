import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Landmark, Pencil, Plus } from 'lucide-react';
import { adminBoardListSchema, createBoardBodySchema, type AdminBoard } from '@portal/contracts';
import { api, toApiError, useApi } from '@/lib/api';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Badge, EmptyState, Skeleton } from '@/components/ui/feedback';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Table, Td, Th } from '@/components/ui/table';
import { notify } from '@/components/ui/toaster';

type FormIn = z.input<typeof createBoardBodySchema>;
type FormOut = z.output<typeof createBoardBodySchema>;

/** The Boards tab (spec 002 §2, §3, §5, §8): boards with their count of active stores; create and edit. */
export function BoardsTab() {
  const { data, error, isLoading, mutate } = useApi('/admin/boards', adminBoardListSchema);
  const [dialog, setDialog] = useState<{ board?: AdminBoard } | null>(null);
  return (
    <section aria-labelledby="boards-title" className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="boards-title" className="text-lg font-semibold text-stone-900">
          Boards
        </h2>
        <Button onClick={() => setDialog({})}>
          <Plus className="h-4 w-4" aria-hidden />
          Add Board
        </Button>
      </div>
      {error ? (
        <EmptyState
          title="Failed to fetch boards"
          description={error.message}
          action={
            <Button variant="outline" onClick={() => mutate()}>
              Try again
            </Button>
          }
        />
      ) : isLoading ? (
        <Skeleton className="h-24 w-full" />
      ) : !data?.items.length ? (
        <EmptyState icon={<Landmark className="h-8 w-8" />} title="No boards yet" description="Add the board that runs your stores." />
      ) : (
        <Table aria-label="Boards">
          <thead>
            <tr>
              <Th>Board number</Th>
              <Th>Name</Th>
              <Th>Status</Th>
              <Th className="text-right">Active stores</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((b) => (
              <tr key={b.id}>
                <Td className="tabular-nums">{b.boardNumber}</Td>
                <Td className="font-medium">{b.name}</Td>
                <Td>{b.isActive ? <Badge variant="success">Active</Badge> : <Badge>Inactive</Badge>}</Td>
                <Td className="text-right tabular-nums">{b.activeStoreCount.toLocaleString('en-US')}</Td>
                <Td>
                  <Button variant="ghost" size="sm" onClick={() => setDialog({ board: b })} aria-label={`Edit ${b.name}`}>
                    <Pencil className="h-4 w-4" aria-hidden />
                    Edit
                  </Button>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {dialog && (
        <BoardDialog
          board={dialog.board}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            void mutate();
          }}
        />
      )}
    </section>
  );
}

function BoardDialog({ board, onClose, onSaved }: { board?: AdminBoard; onClose: () => void; onSaved: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(createBoardBodySchema),
    defaultValues: { boardNumber: board ? String(board.boardNumber) : '', name: board?.name ?? '', isActive: board?.isActive ?? true },
  });
  const submit = handleSubmit(async (body) => {
    try {
      if (board) await api.patch(`/admin/boards/${board.id}`, body);
      else await api.post('/admin/boards', body);
      notify({ title: board ? 'Board updated' : 'Board created', description: body.name, variant: 'success' });
      onSaved();
    } catch (e) {
      const err = toApiError(e);
      if (err.code === 'board_number_taken') setError('boardNumber', { message: err.message });
      notify({ title: board ? 'Failed to update board' : 'Failed to create board', description: err.message, variant: 'destructive' });
    }
  });
  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title={board ? 'Edit Board' : 'Add Board'}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="board-form" loading={isSubmitting}>
            {isSubmitting ? 'Saving...' : 'Save'}
          </Button>
        </>
      }
    >
      <form id="board-form" onSubmit={submit} noValidate className="space-y-4">
        <Field id="board-number" label="Board number *" error={errors.boardNumber?.message}>
          <Input {...describedBy('board-number', errors.boardNumber?.message)} inputMode="numeric" {...register('boardNumber')} />
        </Field>
        <Field id="board-name" label="Name *" error={errors.name?.message}>
          <Input {...describedBy('board-name', errors.name?.message)} {...register('name')} />
        </Field>
        <label htmlFor="board-active" className="flex items-center gap-2 text-sm text-stone-800">
          <input id="board-active" type="checkbox" className="h-4 w-4 accent-brand-700" {...register('isActive')} /> Active
        </label>
      </form>
    </Dialog>
  );
}
