import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getMessages, getTranslations } from 'next-intl/server';
import { TooltipProvider } from '@/app/_components/tooltip';
import { THEME_SCRIPT } from '@/lib/theme';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('app');
  return { title: t('name'), description: t('description') };
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#2563eb' };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The CSP allows inline scripts only with this request's nonce (proxy.ts).
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  const locale = await getLocale();
  // Every page's client components get the catalog without the admin pages' texts and the API's error
  // messages (the admin layout adds its own): smaller pages, and no admin wording on a user's page.
  const { admin: _admin, errors: _errors, ...messages } = await getMessages();
  return (
    // The theme script sets the `dark` class before React hydrates.
    <html lang={locale} suppressHydrationWarning>
      <head>
        <script
          nonce={nonce}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours (lib/theme.ts), no input in it
          dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }}
        />
      </head>
      <body className="h-full bg-white text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        {/* Client components get this request's language and its messages. */}
        <NextIntlClientProvider messages={messages}>
          <TooltipProvider>{children}</TooltipProvider>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
