/** Payment screen (placeholder until its issue lands). */
export function PaymentRoute() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-2xl font-semibold text-stone-900">Payment</h1>
    </div>
  );
}
