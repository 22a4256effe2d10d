import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { ApiError } from '@/lib/api';

/** Puts the problem's field errors (ApiError.fieldError) on the form's `fields` (the server's 400 with `errors[]`). */
export function applyFieldErrors<T extends FieldValues>(err: ApiError, fields: readonly Path<T>[], setError: UseFormSetError<T>) {
  for (const f of fields) {
    const m = err.fieldError(f);
    if (m) setError(f, { message: m });
  }
}
