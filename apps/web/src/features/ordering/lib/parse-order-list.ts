/**
 * Pasted order lists and CSV files for quick order (issue 27 §2): one line per item, the item code then the
 * quantity, separated by a tab, a comma, a semicolon or spaces; quotes around fields are dropped. A header line
 * (`Item Number, Quantity`) and blank lines are skipped. Lines that cannot be read keep their text and a
 * problem, so nothing a buyer pasted is silently dropped.
 */
export interface ParsedLine {
  /** Line number in the pasted text or file (from 1). */
  line: number;
  itemCode: string;
  /** Bottles; null when the line has no readable quantity. */
  quantity: number | null;
  /** Why the line cannot be sent as it is, or null. */
  problem: string | null;
}

const HEADER = /^\s*"?(item\s*(number|no\.?|code|#)|code|sku)"?\s*([,;\t ]|$)/i;

/** The fields of one line: tab, comma or semicolon separated if it has any, else whitespace separated. */
function fields(line: string): string[] {
  const sep = line.includes('\t') ? '\t' : /[,;]/.test(line) ? /[,;]/ : /\s+/;
  return line
    .split(sep)
    .map((f) =>
      f
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim(),
    )
    .filter((f, i, all) => f !== '' || i < all.length - 1);
}

/** Parses a pasted list or CSV text into lines (see the module comment). */
export function parseOrderList(text: string): ParsedLine[] {
  const out: ParsedLine[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((raw, i) => {
    if (raw.trim() === '') return;
    if (out.length === 0 && HEADER.test(raw)) return;
    const [code = '', qty = ''] = fields(raw.trim());
    const itemCode = code.trim();
    if (!itemCode) return;
    if (qty === '') {
      out.push({ line: i + 1, itemCode, quantity: null, problem: 'Enter a quantity' });
      return;
    }
    const n = Number(qty.replace(/,/g, ''));
    if (!Number.isInteger(n) || n <= 0) out.push({ line: i + 1, itemCode, quantity: null, problem: `"${qty}" is not a quantity` });
    else if (n > 999) out.push({ line: i + 1, itemCode, quantity: 999, problem: 'At most 999 bottles per line' });
    else out.push({ line: i + 1, itemCode, quantity: n, problem: null });
  });
  return out;
}
