import { useId, useState } from 'react';
import { ClipboardPaste, Upload } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { parseOrderList, type ParsedLine } from '../lib/parse-order-list';

/** A file's text (FileReader: every browser, and the test DOM). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result ?? ''));
    r.onerror = () => reject(r.error);
    r.readAsText(file);
  });
}

/**
 * Paste a list or upload a CSV (issue 27 §2): one item code and quantity per line (tab, comma or space
 * separated; a CSV with `Item Number, Quantity`). Parsed lines go to the grid with their problems.
 */
export function PastePanel({ onLines }: { onLines: (lines: ParsedLine[]) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const [note, setNote] = useState<string | null>(null);

  const take = (source: string, from: string) => {
    const parsed = parseOrderList(source);
    setNote(
      parsed.length
        ? `${parsed.length} line${parsed.length === 1 ? '' : 's'} from ${from} added to the grid.`
        : `No lines found in ${from}.`,
    );
    if (parsed.length) onLines(parsed);
  };

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm">
      <h2 id={`${id}-title`} className="text-base font-semibold text-stone-900">
        Paste a list or upload a file
      </h2>
      <div className="space-y-1.5">
        <label htmlFor={`${id}-text`} className="block text-sm font-medium text-stone-800">
          Item codes and quantities
        </label>
        <textarea
          id={`${id}-text`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={5}
          aria-describedby={`${id}-hint`}
          placeholder={'35918\t12\n34422, 6\n43337 24'}
          className={cn(inputClass, 'h-auto py-2 font-mono')}
        />
        <p id={`${id}-hint`} className="text-xs text-stone-500">
          One item per line: the code, then the quantity in bottles (tab, comma or space between). Copy columns straight from a spreadsheet.
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          onClick={() => {
            take(text, 'the pasted text');
            setText('');
          }}
          disabled={!text.trim()}
        >
          <ClipboardPaste className="h-4 w-4" aria-hidden /> Add pasted lines
        </Button>
        <input
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv,text/plain"
          className="sr-only"
          onChange={async (e) => {
            const f = e.target.files?.[0];
            if (f) take(await readText(f), f.name);
            e.target.value = '';
          }}
        />
        <label
          htmlFor={`${id}-file`}
          className="inline-flex h-10 cursor-pointer items-center gap-2 rounded-md border border-stone-300 bg-white px-4 text-sm font-medium text-stone-900 hover:bg-stone-50 focus-within:outline-2 focus-within:outline-brand-600"
        >
          <Upload className="h-4 w-4" aria-hidden /> Upload CSV
        </label>
        <span className="text-xs text-stone-500">Columns: Item Number, Quantity</span>
      </div>
      <p role="status" className="text-sm text-stone-700 empty:hidden">
        {note}
      </p>
    </section>
  );
}
