/** Shared classes of the MCP admin pages: buttons and the server status badge colours. */
export const BUTTON =
  'rounded-md border border-zinc-300 px-2.5 py-1 text-sm hover:bg-zinc-100 disabled:opacity-50 aria-disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800';
export const BADGE: Record<string, string> = {
  connected: 'bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-200',
  connecting: 'bg-amber-100 text-amber-800 dark:bg-amber-900 dark:text-amber-200',
  error: 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-200',
};
export const GREY = 'bg-zinc-200 text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200';
