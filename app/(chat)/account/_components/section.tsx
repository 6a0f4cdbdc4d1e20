/**
 * One titled block of the account page. `headingRef`: its heading can take the focus (when the block's
 * last control went with it).
 */
export function Section({
  id,
  title,
  children,
  headingRef,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
  headingRef?: React.Ref<HTMLHeadingElement>;
}) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2
        id={id}
        ref={headingRef}
        tabIndex={headingRef ? -1 : undefined}
        className="mb-3 text-base font-semibold focus:outline-none"
      >
        {title}
      </h2>
      {children}
    </section>
  );
}

export const inputClass =
  'w-full rounded border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900';
export const buttonClass =
  'rounded bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 disabled:opacity-50 aria-disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300';
export const secondaryButtonClass =
  'rounded border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100 disabled:opacity-50 aria-disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800';
