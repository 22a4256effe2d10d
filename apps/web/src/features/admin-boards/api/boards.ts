import type { z } from 'zod';
import { adminBoardListSchema, createBoardBodySchema } from '@portal/contracts';
import { api, useApi } from '@/lib/api';

/** Admin boards API (spec 002 §2, §3, §5): the list with active store counts, create and update. */

/** GET /admin/boards. */
export const useBoards = () => useApi('/admin/boards', adminBoardListSchema);

/** The board form's body, as parsed by createBoardBodySchema. */
export type BoardFormBody = z.output<typeof createBoardBodySchema>;

/** POST /admin/boards (no `boardId`) or PATCH /admin/boards/{id}. Throws ApiError (`board_number_taken`…). */
export async function saveBoard(boardId: number | null, body: BoardFormBody): Promise<void> {
  if (boardId) await api.patch(`/admin/boards/${boardId}`, { json: body });
  else await api.post('/admin/boards', { json: body });
}
