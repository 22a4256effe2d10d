import { z } from 'zod';
import { CART_MESSAGES, intIdSchema, quickOrderBodySchema, quickOrderResultSchema } from '@portal/contracts';
import { route } from '../../http/route';
import { readTextBody } from '../../http/bulk-body';
import { UnsupportedMediaTypeError } from '../../http/errors';
import { SHOP_CODES } from './carts.service';
import { addQuickOrderLines, csvQuickOrderRows } from './quick-order.service';

/** Most bytes of a pasted CSV (1,000 lines of a code and a quantity fit many times over). */
const MAX_CSV_BYTES = 256 * 1024;

/** POST /carts/{cartId}/lines/bulk (ARCHITECTURE §5 "The licensee's ordering week", issue 27): quick order. */
export const quickOrderRoutes = [
  route({
    method: 'post',
    path: '/carts/{cartId}/lines/bulk',
    keepsPrincipals: true,
    scope: { row: 'cart', id: (i) => i.params.cartId, notFound: CART_MESSAGES.cartNotFound },
    tags: ['carts'],
    permissions: SHOP_CODES,
    params: z.strictObject({ cartId: intIdSchema }),
    bodyDoc: {
      description: 'JSON { lines: [{ itemCode, quantity }] } (at most 1,000), or text/csv with the columns Item Number,Quantity',
      content: {
        'application/json': { schema: quickOrderBodySchema },
        'text/csv': {
          schema: z.string().meta({ description: 'CSV: Item Number,Quantity' }),
          example: 'Item Number,Quantity\n38176,12\n43337,6\n',
        },
      },
    },
    response: {
      description: 'Per-row results (row from 1: JSON index + 1, or the CSV line number) and the cart',
      schema: quickOrderResultSchema,
    },
    errors: {
      400: 'A body that is not { lines } (validation_failed), a CSV without its columns (csv_header_unknown) or rows (bulk_body_empty)',
      413: 'More than 256 KB of CSV',
      415: 'Neither JSON nor CSV',
    },
    summary:
      'Quick order: add many item codes at once; each row is checked on its own (unknown code, not carried, inactive, quantity rule with the nearest valid quantity) and the valid rows are added in one transaction',
    handler: async (actor, { params }, { ctx, req }) => {
      const type = String(req.headers['content-type'] ?? '').toLowerCase();
      if (type.startsWith('text/csv') || type.startsWith('text/plain')) {
        const rows = csvQuickOrderRows(await readTextBody(req, MAX_CSV_BYTES));
        return addQuickOrderLines(ctx.db, actor, params.cartId, rows);
      }
      if (!type.startsWith('application/json')) throw new UnsupportedMediaTypeError('Send application/json ({ lines }) or text/csv');
      const body = quickOrderBodySchema.parse(req.body);
      const rows = body.lines.map((l, i) => ({ row: i + 1, itemCode: l.itemCode, quantity: l.quantity }));
      return addQuickOrderLines(ctx.db, actor, params.cartId, rows);
    },
  }),
];
