import type { NextConfig } from 'next';
import createNextIntlPlugin from 'next-intl/plugin';

const securityHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
];

const config: NextConfig = {
  poweredByHeader: false,
  serverExternalPackages: ['better-sqlite3', '@modelcontextprotocol/sdk', 'unpdf', 'ioredis'],
  async headers() {
    return [
      { source: '/:path*', headers: securityHeaders },
      {
        // Public share pages: never indexed, never leak the URL as a referrer, never cached.
        source: '/share/:token*',
        headers: [
          { key: 'X-Robots-Tag', value: 'noindex, nofollow' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
          { key: 'Cache-Control', value: 'no-store' },
        ],
      },
      {
        // The MCP Apps sandbox proxy is framed by our own chat pages (its CSP says so: frame-ancestors 'self').
        source: '/api/mcp-apps/sandbox',
        headers: [
          { key: 'X-Frame-Options', value: 'SAMEORIGIN' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
        ],
      },
    ];
  },
};

// next-intl: the per-request language and messages come from i18n/request.ts.
export default createNextIntlPlugin('./i18n/request.ts')(config);
