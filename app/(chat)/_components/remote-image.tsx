import { useTranslations } from 'next-intl';
import { remoteImageHost } from '@/lib/safe-url';

/**
 * Images from untrusted text never load on their own (the CSP allows only our own and data: images).
 * A placeholder names the domain; following it opens the image in a new tab, without a referrer.
 */
export function RemoteImage({ src, alt }: { src?: string; alt?: string }) {
  const t = useTranslations('remoteImage');
  const target = remoteImageHost(src);
  if (!target) return <span className="text-zinc-500">{alt ? t('removedAlt', { alt }) : t('removed')}</span>;
  return (
    <a
      href={target.href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      data-remote-image={target.host}
      className="inline-flex items-center gap-1 rounded border border-dashed border-zinc-400 px-2 py-1 text-xs text-zinc-600 no-underline dark:text-zinc-300"
    >
      {alt ? t('openAlt', { alt, host: target.host }) : t('open', { host: target.host })}
    </a>
  );
}
