import { z } from 'zod';
import { ORDER_MESSAGES, PERMISSIONS, intIdSchema } from '@portal/contracts';
import type { Response } from 'express';
import { route } from '../../http/route';
import * as documents from './documents.service';

const tags = ['documents'];

/** Sends a PDF inline with its file name (the browser shows or saves it). */
function sendPdf(res: Response, file: { fileName: string; pdf: Buffer }): void {
  res
    .status(200)
    .type('application/pdf')
    .setHeader('Content-Disposition', `inline; filename="${file.fileName}"`)
    .setHeader('Cache-Control', 'private, no-store')
    .send(file.pdf);
}

/** Invoices and monthly statements as PDF (issue 28 §3, ARCHITECTURE §5 "The licensee's ordering week"). */
export const documentsRoutes = [
  route({
    method: 'get',
    path: '/orders/{orderId}/invoice.pdf',
    scope: { row: 'order', id: (i) => i.params.orderId, notFound: ORDER_MESSAGES.notFound },
    tags,
    params: z.object({ orderId: intIdSchema }),
    summary:
      "An order's invoice as PDF (who may read the order: its buyer, the outlet's managers, the store's staff, super administrators)",
    response: { status: 200, description: 'The invoice (application/pdf)' },
    errors: { 404: "Order not found (or not in the caller's reach)" },
    handler: async (_actor, { params }, { ctx, res }) => {
      sendPdf(res, await documents.invoicePdf(ctx.db, params.orderId));
    },
  }),
  route({
    method: 'get',
    path: '/outlets/{outletId}/statements/{month}.pdf',
    scope: { row: 'outlet', id: (i) => i.params.outletId, notFound: 'Outlet not found' },
    tags,
    // The month is checked by the service, after the outlet's scope (a refusal says nothing of the input).
    params: z.object({ outletId: intIdSchema, month: z.string().meta({ description: 'YYYY-MM', example: '2026-12' }) }),
    permissions: [PERMISSIONS.cartsCheckout, PERMISSIONS.ordersOutletManage],
    summary: "An outlet's monthly statement as PDF: every order, refund and claim credit of the month with totals",
    response: { status: 200, description: 'The statement (application/pdf)' },
    errors: { 404: "Outlet not found (or not in the caller's reach)" },
    handler: async (_actor, { params }, { ctx, res }) => {
      sendPdf(res, await documents.statementPdf(ctx.db, params.outletId, params.month));
    },
  }),
];
