import PDFDocument from 'pdfkit';

/**
 * The PDF layout shared by invoices and statements (issue 28 §3), on pdfkit with its built-in Helvetica (no font
 * files of ours): a heading, address blocks, tables that break across pages, and a totals block. Text stays
 * text (a reader or a test extracts it).
 */

/** One column of a table: its heading, width in points and alignment. */
export interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

const MARGIN = 50;

/** A document being written; `done()` ends it and answers its bytes. */
export class PdfWriter {
  readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly ended: Promise<Buffer>;

  constructor(title: string) {
    this.doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, info: { Title: title, Producer: 'Liquor ordering portal' } });
    this.doc.on('data', (c: Buffer) => this.chunks.push(c));
    this.ended = new Promise((resolve, reject) => {
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.doc.on('error', reject);
    });
  }

  /** The page's usable width. */
  get width(): number {
    return this.doc.page.width - MARGIN * 2;
  }

  /** A big title and a smaller line under it. */
  heading(title: string, sub?: string): this {
    this.doc.font('Helvetica-Bold').fontSize(18).text(title, MARGIN, MARGIN);
    if (sub) this.doc.font('Helvetica').fontSize(10).fillColor('#444444').text(sub).fillColor('#000000');
    this.doc.moveDown();
    return this;
  }

  /** Two address blocks side by side (e.g. "From" the store, "To" the outlet). */
  addresses(blocks: { label: string; lines: string[] }[]): this {
    const top = this.doc.y;
    const w = this.width / blocks.length;
    let bottom = top;
    blocks.forEach((b, i) => {
      const x = MARGIN + i * w;
      this.doc
        .font('Helvetica-Bold')
        .fontSize(9)
        .text(b.label.toUpperCase(), x, top, { width: w - 10 });
      this.doc.font('Helvetica').fontSize(10);
      for (const line of b.lines) this.doc.text(line, x, this.doc.y, { width: w - 10 });
      bottom = Math.max(bottom, this.doc.y);
    });
    this.doc.x = MARGIN;
    this.doc.y = bottom + 12;
    return this;
  }

  /** "Label: value" lines. */
  facts(pairs: [string, string][]): this {
    this.doc.fontSize(10);
    for (const [k, v] of pairs) {
      this.doc.font('Helvetica-Bold').text(`${k}: `, MARGIN, this.doc.y, { continued: true }).font('Helvetica').text(v);
    }
    this.doc.moveDown();
    return this;
  }

  /** A section title. */
  section(title: string): this {
    this.doc.moveDown(0.5).font('Helvetica-Bold').fontSize(12).text(title, MARGIN, this.doc.y).moveDown(0.3);
    return this;
  }

  /** A table: a bold header row, then one row per entry (a new page, with the header again, when full). */
  table(columns: Column[], rows: string[][], empty = 'None.'): this {
    const header = () =>
      this.row(
        columns,
        columns.map((c) => c.title),
        true,
      );
    header();
    if (!rows.length) this.doc.font('Helvetica-Oblique').fontSize(9).text(empty, MARGIN, this.doc.y);
    for (const r of rows) {
      if (this.doc.y > this.doc.page.height - MARGIN - 40) {
        this.doc.addPage();
        header();
      }
      this.row(columns, r, false);
    }
    this.doc.moveDown(0.5);
    return this;
  }

  private row(columns: Column[], cells: string[], bold: boolean) {
    const top = this.doc.y;
    let x = MARGIN;
    let bottom = top;
    this.doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    columns.forEach((c, i) => {
      this.doc.text(cells[i] ?? '', x, top, { width: c.width - 6, align: c.align ?? 'left' });
      bottom = Math.max(bottom, this.doc.y);
      x += c.width;
    });
    if (bold) {
      this.doc
        .moveTo(MARGIN, bottom + 2)
        .lineTo(MARGIN + this.width, bottom + 2)
        .strokeColor('#999999')
        .stroke();
      bottom += 4;
    }
    this.doc.x = MARGIN;
    this.doc.y = bottom + 3;
  }

  /** Right-aligned "Label  value" totals; the last one bold when `strongLast`. */
  totals(pairs: [string, string][], strongLast = true): this {
    const w = 260;
    const x = MARGIN + this.width - w;
    pairs.forEach(([k, v], i) => {
      const strong = strongLast && i === pairs.length - 1;
      const top = this.doc.y;
      this.doc.font(strong ? 'Helvetica-Bold' : 'Helvetica').fontSize(strong ? 11 : 10);
      this.doc.text(k, x, top, { width: 160 });
      this.doc.text(v, x + 160, top, { width: 100, align: 'right' });
    });
    this.doc.x = MARGIN;
    this.doc.moveDown();
    return this;
  }

  /** A small note paragraph. */
  note(text: string): this {
    this.doc.font('Helvetica').fontSize(8).fillColor('#555555').text(text, MARGIN, this.doc.y, { width: this.width }).fillColor('#000000');
    return this;
  }

  /** Ends the document; answers its bytes. */
  done(): Promise<Buffer> {
    this.doc.end();
    return this.ended;
  }
}

/** "$1,234.50" of a decimal string ("-12.00" → "-$12.00"). */
export function usd(amount: string): string {
  const neg = amount.startsWith('-');
  const digits = neg ? amount.slice(1) : amount;
  return `${neg ? '-' : ''}$${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/** An address block's lines: name, street, "City, ST ZIP", phone. */
export function addressLines(p: {
  name: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  phone: string | null;
}): string[] {
  const cityLine = [p.city, [p.state, p.zipCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [p.name, ...(p.address ? [p.address] : []), ...(cityLine ? [cityLine] : []), ...(p.phone ? [`Phone ${p.phone}`] : [])];
}
