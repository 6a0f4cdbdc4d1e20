import Link from 'next/link';

export default function NotFound() {
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-3 p-6 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-sm text-zinc-500">This page does not exist, or you do not have access to it.</p>
      <Link href="/" className="text-sm text-blue-600 underline">
        Back to chat
      </Link>
    </main>
  );
}
