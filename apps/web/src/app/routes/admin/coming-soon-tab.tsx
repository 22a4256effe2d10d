/** Placeholder panel for an admin tab whose screen has not landed yet. */
export function ComingSoonTab() {
  return <p className="rounded-lg border border-dashed border-stone-300 p-6 text-sm text-stone-600">This section is coming soon.</p>;
}
