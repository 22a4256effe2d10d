/** My Cart screen (placeholder until its issue lands). */
export function CartRoute() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-2xl font-semibold text-stone-900">My Cart</h1>
    </div>
  );
}
