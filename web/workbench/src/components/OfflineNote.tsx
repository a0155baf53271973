/** OfflineNote says in place how to turn on a model feature when the server has no Claude key. */
export function OfflineNote({ what, many = false }: { what: string; many?: boolean }) {
  return (
    <p className="mb-2 rounded border border-amber-200 bg-amber-50 p-2 text-xs text-amber-900">
      {what} {many ? "need" : "needs"} Claude. Set <code>ANTHROPIC_API_KEY</code> and restart <code>paige serve</code> to turn it on.
    </p>
  );
}
