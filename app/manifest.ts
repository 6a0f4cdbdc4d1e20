import type { MetadataRoute } from 'next';

/** The web app manifest (served at /manifest.webmanifest): installable on a phone's home screen. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: 'MCP Chat',
    short_name: 'MCP Chat',
    description: 'Self-hosted chat with your models and your MCP tools',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#2563eb',
    icons: [
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}
