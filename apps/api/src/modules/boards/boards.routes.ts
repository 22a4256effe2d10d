import { z } from 'zod';
import { adminBoardListSchema, adminBoardSchema, createBoardBodySchema, intIdSchema, updateBoardBodySchema } from '@portal/contracts';
import { route } from '../../http/route';
import { adminActor } from '../access/access.service';
import * as boards from './boards.service';

const tags = ['admin: boards'];
const permissions = boards.BOARD_CODES;
const board = adminBoardSchema.meta({ id: 'AdminBoard' });

/** /api/v1/admin/boards (spec 002 §2 Boards, ARCHITECTURE §5): list with active store counts, create, edit. */
export const boardsRoutes = [
  route({
    method: 'get',
    path: '/admin/boards',
    scope: 'reach',
    tags,
    permissions,
    summary: "Boards in the caller's scope with their count of active stores",
    response: { description: 'Boards by board number', schema: adminBoardListSchema },
    handler: (actor, _i, { ctx }) => boards.listBoards(ctx.db, actor),
  }),
  route({
    method: 'post',
    path: '/admin/boards',
    scope: 'global',
    tags,
    permissions,
    body: createBoardBodySchema,
    summary: 'Add a board (board number required and unique)',
    response: { status: 201, description: 'The board', schema: board },
    errors: { 409: 'Board number already used (board_number_taken)' },
    handler: (actor, { body }, { ctx, req }) => boards.createBoard(ctx.db, adminActor(actor, req), body),
  }),
  route({
    method: 'patch',
    path: '/admin/boards/{boardId}',
    scope: { row: 'board', id: (i) => i.params.boardId, notFound: 'Board not found' },
    tags,
    permissions,
    params: z.object({ boardId: intIdSchema }),
    body: updateBoardBodySchema,
    summary: "Edit a board of the caller's scope",
    response: { description: 'The board', schema: board },
    errors: { 404: "No such board in the caller's scope", 409: 'Board number already used (board_number_taken)' },
    handler: (actor, { params, body }, { ctx, req }) => boards.updateBoard(ctx.db, adminActor(actor, req), params.boardId, body),
  }),
];
