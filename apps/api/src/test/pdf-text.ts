import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Reads a PDF's text back with pdfjs-dist's legacy build (an ES module, run in a child Node process). */
const SCRIPT = `
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { readFileSync } from 'node:fs';
const doc = await getDocument({ data: new Uint8Array(readFileSync(process.argv[1])), verbosity: 0 }).promise;
let out = '';
for (let i = 1; i <= doc.numPages; i++) {
  const content = await (await doc.getPage(i)).getTextContent();
  out += content.items.map((x) => x.str).join(' ') + '\\n';
}
process.stdout.write(JSON.stringify({ pages: doc.numPages, text: out }));
`;

/** The text of every page of `pdf` (items joined by spaces, pages by newlines) and the page count. */
export function pdfText(pdf: Buffer): { pages: number; text: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-text-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT, file], {
      cwd: join(__dirname, '../../../..'),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return JSON.parse(out) as { pages: number; text: string };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
