import Link from 'next/link';

/** No model to answer: an admin gets the way to add one, anyone else is told to ask an admin. */
export function NoProviderNotice({ admin }: { admin: boolean }) {
  return (
    <p
      role="status"
      data-no-provider
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      No model provider is configured yet.{' '}
      {admin ? (
        <>
          Add one in{' '}
          <Link href="/admin/providers" className="font-medium underline">
            Admin → Providers
          </Link>
          .
        </>
      ) : (
        'Ask your admin to add one.'
      )}
    </p>
  );
}
