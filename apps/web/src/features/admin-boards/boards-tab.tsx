import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Landmark, Pencil } from 'lucide-react';
import { createBoardBodySchema, type AdminBoard } from '@portal/contracts';
import { toApiError } from '@/lib/api';
import { DataTable, RowAction, actionsHeader, type Column } from '@/components/admin/data-table';
import { FormDialog } from '@/components/admin/form-dialog';
import { useEditDialog } from '@/components/admin/use-edit-dialog';
import { ResourcePanel } from '@/components/admin/resource-panel';
import { Badge } from '@/components/ui/feedback';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/components/ui/toaster';
import { saveBoard, useBoards } from './api/boards';
import { formatCount } from '@/lib/format';

/** The Boards tab (spec 002 §2, §3, §5, §8): boards with their count of active stores; create and edit. */
export function BoardsTab() {
  const boards = useBoards();
  const dialog = useEditDialog<AdminBoard>(boards.mutate);
  const columns: Column<AdminBoard>[] = [
    { header: 'Board number', field: 'boardNumber', sortKey: 'boardNumber', className: 'tabular-nums' },
    { header: 'Name', field: 'name', sortKey: 'name', className: 'font-medium' },
    { header: 'Status', cell: (b) => (b.isActive ? <Badge variant="success">Active</Badge> : <Badge>Inactive</Badge>) },
    {
      header: 'Active stores',
      cell: (b) => formatCount(b.activeStoreCount),
      sortKey: 'activeStoreCount',
      sortValue: (b) => b.activeStoreCount,
      className: 'text-right tabular-nums',
      headerClassName: 'text-right',
    },
    {
      header: actionsHeader,
      cell: (b) => <RowAction icon={Pencil} text="Edit" label={`Edit ${b.name}`} onClick={() => dialog.open(b)} />,
    },
  ];
  return (
    <ResourcePanel
      id="boards"
      title="Boards"
      addLabel="Add Board"
      onAdd={() => dialog.open()}
      query={boards}
      errorTitle="Failed to fetch boards"
      empty={{ icon: Landmark, title: 'No boards yet', description: 'Add the board that runs your stores.' }}
      overlays={dialog.isOpen && <BoardDialog board={dialog.target} onClose={dialog.close} onSaved={dialog.saved} />}
    >
      <DataTable label="Boards" rows={boards.data?.items ?? []} columns={columns} rowKey={(b) => b.id} />
    </ResourcePanel>
  );
}

function BoardDialog({ board, onClose, onSaved }: { board?: AdminBoard; onClose: () => void; onSaved: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof createBoardBodySchema>, unknown, z.output<typeof createBoardBodySchema>>({
    resolver: zodResolver(createBoardBodySchema),
    defaultValues: { boardNumber: board ? String(board.boardNumber) : '', name: board?.name ?? '', isActive: board?.isActive ?? true },
  });
  const submit = handleSubmit(async (body) => {
    try {
      await saveBoard(board?.id ?? null, body);
      notify({ title: board ? 'Board updated' : 'Board created', description: body.name, variant: 'success' });
      onSaved();
    } catch (e) {
      const err = toApiError(e);
      if (err.code === 'board_number_taken') setError('boardNumber', { message: err.message });
      notify({ title: board ? 'Failed to update board' : 'Failed to create board', description: err.message, variant: 'destructive' });
    }
  });
  return (
    <FormDialog title={board ? 'Edit Board' : 'Add Board'} formId="board-form" onSubmit={submit} onClose={onClose} busy={isSubmitting}>
      <Field id="board-number" label="Board number *" error={errors.boardNumber?.message}>
        <Input {...describedBy('board-number', errors.boardNumber?.message)} inputMode="numeric" {...register('boardNumber')} />
      </Field>
      <Field id="board-name" label="Name *" error={errors.name?.message}>
        <Input {...describedBy('board-name', errors.name?.message)} {...register('name')} />
      </Field>
      <label htmlFor="board-active" className="flex items-center gap-2 text-sm text-stone-800">
        <input id="board-active" type="checkbox" className="h-4 w-4 accent-brand-700" {...register('isActive')} /> Active
      </label>
    </FormDialog>
  );
}
